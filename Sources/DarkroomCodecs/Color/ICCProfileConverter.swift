import DarkroomCore

/// Converts pixels tagged with an embedded ICC profile to sRGB, Darkroom's working space, with
/// lcms2 (as imgproxy and sharp do by default).
///
/// Transforms are cached by profile bytes (see `ICCTransformCache`), and a profile found to be
/// sRGB already costs only that cache lookup afterwards. Every conversion runs in place.
///
/// Errors are `.colorProfile`. Whether a broken profile fails the image is the caller's policy;
/// Darkroom's decoders fail in strict mode and, in lenient mode, catch the error and keep the
/// pixels as they are (treated as sRGB, which is what browsers do with a profile they cannot use).
public enum ICCProfileConverter {
    /// Converts `bitmap` (premultiplied RGBA) from the colour space `profile` describes to sRGB.
    ///
    /// `profile` may describe RGB data, or grey data for a greyscale image decoded into RGBA
    /// (R = G = B; the red byte is read as the grey value). The bitmap is unpremultiplied around
    /// the conversion only when it is not opaque. A profile that already is sRGB leaves the
    /// pixels untouched.
    ///
    /// - Throws: `.colorProfile` when the profile cannot be parsed or does not describe RGB or
    ///   grey data; the message names `sourceName` and the reason.
    public static func convertToSRGB(_ bitmap: inout Bitmap, profile: [UInt8], sourceName: String) throws(CodecError) {
        let layout: ICCPixelLayout
        switch headerColorSpace(of: profile) {
        case "RGB ": layout = .rgba
        case "GRAY": layout = .grayInRGBA
        case let other?:
            throw CodecError(
                .colorProfile, source: sourceName,
                "embedded ICC profile describes '\(other)' data, but the image is RGB (use --lenient to ignore the profile)")
        case nil:
            throw CodecError(
                .colorProfile, source: sourceName,
                "embedded ICC profile is not a valid ICC profile (\(profile.count) bytes; use --lenient to ignore it)")
        }
        let transform = try cachedTransform(profile: profile, layout: layout, sourceName: sourceName)
        apply(transform, to: &bitmap)
    }

    /// Runs an RGB or grey transform over `bitmap` in place, unpremultiplying around it only when
    /// the bitmap is not opaque.
    static func apply(_ transform: ICCTransform, to bitmap: inout Bitmap) {
        guard !transform.isIdentity else { return }
        let width = bitmap.width
        let height = bitmap.height
        let stride = bitmap.bytesPerRow
        let opaque = bitmap.isOpaque
        bitmap.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            // Bands of rows on idle cores (`RowBands`): the transform is shared read-only.
            RowBands.forEachNonThrowing(rows: height, width: width) { band in
                if opaque {
                    transform.apply(base + band.lowerBound * stride, width: width, rows: band.count, bytesPerRow: stride)
                    return
                }
                // Row by row, so each row is unpremultiplied, converted and premultiplied while
                // it is still in cache.
                for y in band {
                    let row = base + y * stride
                    AlphaKernels.unpremultiply(row, to: row, pixelCount: width)
                    transform.apply(row, width: width, rows: 1, bytesPerRow: stride)
                    _ = AlphaKernels.premultiplyInPlace(row, pixelCount: width)
                }
            }
        }
    }

    /// True when `profile` is sRGB or equivalent (no conversion needed); false when it differs or
    /// cannot be used. Cached like the conversions themselves.
    public static func isSRGB(_ profile: [UInt8]) -> Bool {
        guard headerColorSpace(of: profile) == "RGB " else { return false }
        if case .success(let transform) = ICCTransformCache.shared.transform(profile: profile, layout: .rgba) {
            return transform.isIdentity
        }
        return false
    }

    /// Converts CMYK pixels (4 bytes each, `inverted` when 255 means no ink) in place to opaque
    /// sRGB RGBA using `profile`, which must describe CMYK data.
    static func convertCMYKToSRGB(
        _ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int,
        profile: [UInt8], inverted: Bool, sourceName: String
    ) throws(CodecError) {
        let transform = try cachedTransform(profile: profile, layout: inverted ? .invertedCMYK : .cmyk, sourceName: sourceName)
        applyCMYK(transform, to: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
    }

    /// Runs a CMYK transform in place and sets every alpha byte to 255.
    static func applyCMYK(_ transform: ICCTransform, to pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        RowBands.forEachNonThrowing(rows: height, width: width) { band in
            for y in band {
                let row = pixels + y * bytesPerRow
                transform.apply(row, width: width, rows: 1, bytesPerRow: bytesPerRow)
                // The fourth byte still holds K: lcms2 leaves extra channels alone.
                var alpha = row + 3
                for _ in 0..<width {
                    alpha.pointee = 255
                    alpha += 4
                }
            }
        }
    }

    /// The cached transform for `profile`, or `.colorProfile` saying why there is none.
    static func cachedTransform(profile: [UInt8], layout: ICCPixelLayout, sourceName: String) throws(CodecError) -> ICCTransform {
        switch ICCTransformCache.shared.transform(profile: profile, layout: layout) {
        case .success(let transform):
            return transform
        case .failure(let failure):
            throw CodecError(.colorProfile, source: sourceName, "embedded ICC profile \(failure.reason) (use --lenient to ignore it)")
        }
    }

    /// The data colour space field of an ICC header (bytes 16–19, e.g. `RGB `, `GRAY`, `CMYK`),
    /// or nil when the data is too short or not an ICC profile (no `acsp` at byte 36).
    static func headerColorSpace(of profile: [UInt8]) -> String? {
        guard profile.count >= 132, Array(profile[36..<40]) == Array("acsp".utf8) else { return nil }
        let field = profile[16..<20]
        guard field.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return "????" }
        return String(decoding: field, as: UTF8.self)
    }
}
