import CTurboJPEG
import DarkroomChains
import DarkroomCore

/// Decodes JPEG through TurboJPEG: baseline and progressive, any chroma subsampling, grey, CMYK
/// and YCCK; shrink-on-load through DCT scaling; EXIF orientation applied; embedded ICC profiles
/// converted to sRGB — or, with `DecodeOptions.keep`, an RGB profile kept and the EXIF and XMP
/// blocks collected (`DecodedImage.metadata`).
///
/// Strict mode (the default) turns every libjpeg warning into an error. One case is accepted on
/// purpose: a file missing only its final EOI marker decodes when all of its image data is there
/// (see `JPEGDecodeInput`). Lenient mode accepts whatever libjpeg recovers, grey blocks included.
public struct JPEGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .jpeg }

    /// Flags used for every decode.
    ///
    /// - `TJFLAG_LIMITSCANS`: refuse progressive files with an absurd number of scans (a known way
    ///   to make a tiny file cost minutes of CPU).
    /// - `TJFLAG_STOPONWARNING` in strict mode: any libjpeg warning aborts the decode.
    /// - `TJFLAG_FASTUPSAMPLE` / `TJFLAG_FASTDCT`: off, measured on the nine corpus JPEGs at the
    ///   scales a 400 px thumbnail uses (1/8, 1/4). There libjpeg-turbo's reduced IDCTs have no
    ///   fast variant (FASTDCT changes no pixel) and the CPU time moved by under 2 %, within
    ///   noise, while FASTUPSAMPLE changed 4:2:x images by 43.7–52 dB against `djpeg -scale`. At
    ///   1/1 and 1/2 the flags also saved ≤ 3 % and cost 44–51 dB. Off keeps our pixels identical
    ///   to `djpeg -scale 1/N`, the project's CPU floor.
    static func decodeFlags(strict: Bool) -> Int32 {
        var flags = TJFLAG_LIMITSCANS
        if strict { flags |= TJFLAG_STOPONWARNING }
        return Int32(flags)
    }

    /// Starts with SOI followed by a marker: FF D8 FF.
    public func canDecode(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    public func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        let header = try readHeader(image, limits: limits)
        return info(for: header)
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let source = image.sourceName
        let limits = options.limits
        let header = try readHeader(image, limits: limits)
        guard header.firstScanOffset != nil else {
            throw CodecError(.truncated, source: source, "truncated JPEG data: the file ends before the image data (no SOS marker)")
        }
        let color = try JPEGColorPlan(header: header, strict: limits.strict, source: source, keepProfile: options.keep.contains(.icc))
        let (factor, size) = JPEGShrinkOnLoad.choose(stored: header.size, orientation: header.orientation, hint: options.hint)
        var input = try JPEGDecodeInput(image.bytes, header: header, strict: limits.strict, source: source)
        if factor.denom == 8 && header.isProgressive {
            input.dropScansUnusedAtEighthScale()
        }

        var bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: size.width, height: size.height, isOpaque: true, limits: options.bitmapLimits) { buffer, rowBytes in
                guard let base = buffer.baseAddress else { return }
                try decompress(
                    input, into: base, size: size, bytesPerRow: rowBytes,
                    pixelFormat: color.isCMYK ? TJPF_CMYK : TJPF_RGBA, strict: limits.strict, source: source)
                color.convertCMYK(base, width: size.width, height: size.height, bytesPerRow: rowBytes)
            }
        } catch let error as CodecError {
            throw error
        } catch {
            throw CodecError(.tooLarge, source: source, "cannot hold the decoded image: \(error)")
        }
        color.convertRGB(&bitmap)
        if factor.denom != 1 {
            bitmap.sizeBeforeShrinkOnLoad = header.size
        }
        if header.orientation != .up {
            do {
                bitmap = try bitmap.applying(header.orientation)
            } catch {
                throw CodecError(.tooLarge, source: source, "cannot turn the image upright: \(error)")
            }
        }
        var metadata = ImageMetadata(icc: color.keptProfile)
        if options.keep.needsEXIF, let range = header.exifRange { metadata.exif = Array(image.bytes[range]) }
        if options.keep.contains(.xmp), let range = header.xmpRange { metadata.xmp = Array(image.bytes[range]) }
        return DecodedImage(bitmap: bitmap, info: info(for: header), metadata: metadata)
    }

    /// Scans the header and checks the limits: nothing pixel-sized exists yet.
    private func readHeader(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> JPEGHeader {
        guard !image.bytes.isEmpty else {
            throw CodecError(.empty, source: image.sourceName, "is empty (0 bytes)")
        }
        guard canDecode(image.bytes) else {
            throw CodecError(.corrupt, source: image.sourceName, "is not a JPEG file (it does not start with FF D8 FF)")
        }
        let header = try JPEGMarkerScanner.scan(image.bytes, source: image.sourceName)
        try limits.check(header.size, source: image.sourceName)
        return header
    }

    private func info(for header: JPEGHeader) -> ImageInfo {
        ImageInfo(
            format: .jpeg, storedSize: header.size, orientation: header.orientation,
            hasAlpha: false, hasICCProfile: header.iccProfile.isPresent)
    }

    /// Runs `tjDecompress2` into `destination`, which holds `size` pixels of 4 bytes.
    private func decompress(
        _ input: JPEGDecodeInput, into destination: UnsafeMutablePointer<UInt8>, size: PixelSize,
        bytesPerRow: Int, pixelFormat: TJPF, strict: Bool, source: String
    ) throws(CodecError) {
        guard let handle = TurboJPEGHandle.decompressor() else {
            throw CodecError(.corrupt, source: source, "could not start the JPEG decoder (out of memory)")
        }
        let status = input.bytes.withUnsafeBufferPointer { jpeg in
            tjDecompress2(
                handle.raw, jpeg.baseAddress, UInt(jpeg.count), destination,
                Int32(size.width), Int32(bytesPerRow), Int32(size.height),
                pixelFormat.rawValue, Self.decodeFlags(strict: strict))
        }
        guard status != 0 else { return }
        // TurboJPEG returns -1 for warnings too; lenient mode keeps what libjpeg recovered.
        if !strict && handle.lastErrorWasWarning { return }
        throw JPEGDecodeFailure.codecError(message: handle.errorMessage, endOfImageWasMissing: input.endOfImageWasMissing, source: source)
    }
}
