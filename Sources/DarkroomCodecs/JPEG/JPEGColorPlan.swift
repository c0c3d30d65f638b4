import DarkroomCore

/// How a JPEG's pixels reach sRGB, settled from the header before any pixel is decoded, so a
/// strict decode with an unusable profile fails before spending time on the image.
///
/// Profile policy (strict, the default): a profile that is malformed (broken APP2 chunk
/// sequence), unparseable, or for the wrong kind of data is an error, `.colorProfile`: the
/// colours Darkroom would produce are not the ones the file asks for. Lenient: such a profile
/// is ignored and the pixels are taken as sRGB (CMYK gets the naive conversion), as browsers do.
struct JPEGColorPlan {
    private enum Kind {
        /// Already sRGB, or no profile: nothing to do.
        case none
        /// An RGB or grey profile applied after decoding.
        case profile(ICCTransform)
        /// CMYK/YCCK decoded as CMYK, then converted through a CMYK profile.
        case cmykProfile(ICCTransform)
        /// CMYK/YCCK without a usable profile: the naive formula.
        case cmykNaive(inverted: Bool)
    }

    private let kind: Kind
    /// The profile the pixels are left in when the caller asked to keep it (`keep: icc`): only
    /// an RGB profile on a 3-component image. CMYK and grey images are converted to sRGB as
    /// always (Darkroom's outputs are RGB), and their profile is dropped.
    private(set) var keptProfile: [UInt8]?

    /// True when libjpeg must produce CMYK (4-component frames).
    var isCMYK: Bool {
        switch kind {
        case .cmykProfile, .cmykNaive: return true
        case .none, .profile: return false
        }
    }

    init(header: JPEGHeader, strict: Bool, source: String, keepProfile: Bool = false) throws(CodecError) {
        // Photoshop (and libjpeg, which ImageMagick uses) writes an Adobe marker with CMYK and
        // stores it inverted; without the marker, CMYK is taken as plain ink amounts.
        let inverted = header.adobeTransform != nil
        let isCMYK = header.componentCount == 4
        var profile: [UInt8]?
        switch header.iccProfile {
        case .absent:
            profile = nil
        case .complete(let bytes):
            profile = bytes
        case .malformed(let reason):
            if strict {
                throw CodecError(.colorProfile, source: source, "embedded ICC profile is malformed: \(reason) (use --lenient to ignore it)")
            }
            profile = nil
        }
        guard let profile else {
            kind = isCMYK ? .cmykNaive(inverted: inverted) : .none
            return
        }
        let layout: ICCPixelLayout
        switch (header.componentCount, ICCProfileConverter.headerColorSpace(of: profile)) {
        case (4, _): layout = inverted ? .invertedCMYK : .cmyk
        case (1, "GRAY"): layout = .grayInRGBA
        default: layout = .rgba  // a grey JPEG decoded to RGBA may carry an RGB profile
        }
        do {
            let transform = try ICCProfileConverter.cachedTransform(profile: profile, layout: layout, sourceName: source)
            if keepProfile && header.componentCount == 3 && ColorProfilePolicy.keepsProfile(profile) {
                // Checked usable (the transform was made), then left unapplied and embedded.
                kind = .none
                keptProfile = profile
            } else if isCMYK {
                kind = .cmykProfile(transform)
            } else {
                kind = transform.isIdentity ? .none : .profile(transform)
            }
        } catch {
            if strict { throw error }
            kind = isCMYK ? .cmykNaive(inverted: inverted) : .none
        }
    }

    /// Turns freshly decoded CMYK pixels into sRGB RGBA in place; does nothing for other images.
    func convertCMYK(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
        switch kind {
        case .cmykProfile(let transform):
            ICCProfileConverter.applyCMYK(transform, to: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
        case .cmykNaive(let inverted):
            JPEGCMYKConversion.convertWithoutProfile(pixels, width: width, height: height, bytesPerRow: bytesPerRow, inverted: inverted)
        case .none, .profile:
            break
        }
    }

    /// Applies an RGB or grey profile to the decoded bitmap; does nothing for other images.
    func convertRGB(_ bitmap: inout Bitmap) {
        if case .profile(let transform) = kind {
            ICCProfileConverter.apply(transform, to: &bitmap)
        }
    }
}
