import CLcms2

/// How the pixels an `ICCTransform` reads are laid out. Every layout is 4 bytes per pixel, so
/// each transform runs in place over a `Bitmap`'s storage, and the output is always sRGB RGBA
/// with the fourth byte left as it was (lcms2 does not touch extra channels without
/// `cmsFLAGS_COPY_ALPHA`).
enum ICCPixelLayout: Hashable, Sendable {
    /// RGBA, straight alpha (the caller unpremultiplies first when needed).
    case rgba
    /// A grey value in the first byte of each RGBA pixel (R = G = B): a greyscale image decoded
    /// straight into RGBA, tagged with a grey profile.
    case grayInRGBA
    /// CMYK, 0 = no ink.
    case cmyk
    /// CMYK stored inverted, 255 = no ink, as Photoshop writes it in JPEGs with an Adobe marker.
    case invertedCMYK

    /// The ICC colour space a profile must describe to be applied to this layout.
    var profileColorSpace: cmsColorSpaceSignature {
        switch self {
        case .rgba: return cmsSigRgbData
        case .grayInRGBA: return cmsSigGrayData
        case .cmyk, .invertedCMYK: return cmsSigCmykData
        }
    }

    var lcmsInputType: cmsUInt32Number {
        switch self {
        case .rgba: return darkroom_lcms_type_rgba_8()
        case .grayInRGBA: return darkroom_lcms_type_gray_8_in_rgba()
        case .cmyk: return darkroom_lcms_type_cmyk_8()
        case .invertedCMYK: return darkroom_lcms_type_cmyk_8_reverse()
        }
    }
}

/// A ready lcms2 transform from one embedded profile to sRGB, or the knowledge that the profile
/// already is sRGB (`isIdentity`), so applying it costs nothing.
///
/// Safe to share between threads (hence `@unchecked Sendable`): the handle is immutable after
/// creation and `cmsDoTransform`/`cmsDoTransformLineStride` only read the transform. The one
/// piece of mutable-looking state, lcms2's one-pixel cache, is copied into a local at the start
/// of every call since lcms2 2.3 (`CachedXFORM` does `memcpy(&Cache, &p->Cache, …)` and never
/// writes back), which is why the old advice to pass `cmsFLAGS_NOCACHE` for thread safety no
/// longer applies; keeping the cache helps photos with flat areas. The handle is freed by
/// `deinit`, i.e. only once no cache entry and no running conversion holds the object.
final class ICCTransform: @unchecked Sendable {
    /// nil when the profile is (within one level per channel) sRGB already.
    private let handle: cmsHTRANSFORM?
    let layout: ICCPixelLayout

    var isIdentity: Bool { handle == nil }

    private init(handle: cmsHTRANSFORM?, layout: ICCPixelLayout) {
        self.handle = handle
        self.layout = layout
    }

    deinit {
        if let handle { cmsDeleteTransform(handle) }
    }

    /// Converts `rows` rows of `width` pixels in place.
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, rows: Int, bytesPerRow: Int) {
        guard let handle, width > 0, rows > 0 else { return }
        cmsDoTransformLineStride(
            handle, pixels, pixels, cmsUInt32Number(width), cmsUInt32Number(rows),
            cmsUInt32Number(bytesPerRow), cmsUInt32Number(bytesPerRow), 0, 0)
    }

    /// Builds the transform from `profile` to sRGB for pixels in `layout`; the message says why not.
    ///
    /// Intent: perceptual (the ICC default, and ImageMagick's and Pillow's), with black-point
    /// compensation. For the matrix/curve RGB profiles cameras embed every intent gives the same
    /// result; for CMYK press profiles perceptual maps the gamut gently, and some (ghostscript's
    /// ps_cmyk.icc) carry no relative-colorimetric tables at all.
    static func make(profile: [UInt8], layout: ICCPixelLayout) -> Result<ICCTransform, ICCTransformFailure> {
        guard profile.count >= 132, profile.count <= Int(UInt32.max) else {
            return .failure(ICCTransformFailure("is not a valid ICC profile (\(profile.count) bytes)"))
        }
        let source = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let source else {
            return .failure(ICCTransformFailure("could not be parsed by lcms2 (\(profile.count) bytes)"))
        }
        defer { cmsCloseProfile(source) }
        let space = cmsGetColorSpace(source)
        guard space == layout.profileColorSpace else {
            return .failure(
                ICCTransformFailure("describes \(signatureText(space.rawValue)) data, but the pixels are \(signatureText(layout.profileColorSpace.rawValue))"))
        }
        let deviceClass = cmsGetDeviceClass(source)
        guard [cmsSigInputClass, cmsSigDisplayClass, cmsSigOutputClass, cmsSigColorSpaceClass].contains(deviceClass) else {
            return .failure(ICCTransformFailure("is a '\(signatureText(deviceClass.rawValue))' profile, not one that describes image data"))
        }
        guard let sRGB = cmsCreate_sRGBProfile() else {
            return .failure(ICCTransformFailure("could not be converted: lcms2 could not create sRGB"))
        }
        defer { cmsCloseProfile(sRGB) }
        let transform = cmsCreateTransform(
            source, layout.lcmsInputType, sRGB, darkroom_lcms_type_rgba_8(),
            cmsUInt32Number(INTENT_PERCEPTUAL),
            cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION))
        guard let transform else {
            return .failure(ICCTransformFailure("could not be turned into a transform to sRGB by lcms2"))
        }
        let result = ICCTransform(handle: transform, layout: layout)
        if result.behavesAsSRGB() {
            return .success(ICCTransform(handle: nil, layout: layout))  // `result` frees the handle
        }
        return .success(result)
    }

    /// True when the transform changes no probe colour by more than one level: the profile is
    /// sRGB (or equivalent), so images tagged with it can skip the conversion pass. Probing the
    /// real transform, rather than comparing tags, also catches LUT-based sRGB profiles. It runs
    /// once per distinct profile (the result is cached), so its cost does not matter.
    private func behavesAsSRGB() -> Bool {
        let levels: [UInt8]
        switch layout {
        case .cmyk, .invertedCMYK: return false
        case .rgba: levels = [0, 16, 32, 64, 96, 128, 160, 192, 224, 255]
        case .grayInRGBA: levels = (0...255).map { UInt8($0) }
        }
        var probe: [UInt8] = []
        if layout == .rgba {
            for r in levels { for g in levels { for b in levels { probe += [r, g, b, 255] } } }
        } else {
            for v in levels { probe += [v, v, v, 255] }
        }
        let expected = probe
        probe.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { apply(base, width: buffer.count / 4, rows: 1, bytesPerRow: buffer.count) }
        }
        for index in probe.indices where index % 4 != 3 {
            if abs(Int(probe[index]) - Int(expected[index])) > 1 { return false }
        }
        return true
    }

    private static func signatureText(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return text.trimmingTrailingSpaces
    }
}

/// Why an embedded profile cannot be applied (the caller adds the file name).
struct ICCTransformFailure: Error, Sendable, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
