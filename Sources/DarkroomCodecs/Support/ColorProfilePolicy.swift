import DarkroomCore

/// How decoders apply an embedded ICC profile (the built-in ones, and the host for a plugin coder's).
///
/// Strict mode fails an image whose profile cannot be used (`.colorProfile`); lenient mode keeps
/// the pixels as they are, treated as sRGB, which is what browsers do with a profile they cannot
/// read.
public enum ColorProfilePolicy {
    static func convert(_ bitmap: inout Bitmap, profile: [UInt8], source: String, strict: Bool) throws(CodecError) {
        do {
            try ICCProfileConverter.convertToSRGB(&bitmap, profile: profile, sourceName: source)
        } catch  where !strict {
            return
        }
    }

    /// `convert`, unless `keep` (a job's `keep: icc`) and the profile is an RGB profile lcms2 can
    /// use: then the pixels stay in it and the profile is returned, for the encoder to embed.
    /// Grey and other profiles are converted as always: outputs are RGB, so a grey profile could
    /// not describe them.
    public static func apply(_ bitmap: inout Bitmap, profile: [UInt8], source: String, strict: Bool, keep: Bool) throws(CodecError) -> [UInt8]? {
        if keep, keepsProfile(profile) {
            return try checkedKept(profile, source: source, strict: strict)
        }
        try convert(&bitmap, profile: profile, source: source, strict: strict)
        return nil
    }

    /// Whether `keep: icc` keeps this profile rather than converting: RGB profiles that every
    /// output can embed (`ImageMetadata.maximumICCBytes`; a larger one is converted, since pixels
    /// left in a profile the output cannot carry would show wrong colours).
    static func keepsProfile(_ profile: [UInt8]) -> Bool {
        profile.count <= ImageMetadata.maximumICCBytes && ICCProfileConverter.headerColorSpace(of: profile) == "RGB "
    }

    /// `profile`, once lcms2 has shown it usable; nil when it is not and `strict` is off (the
    /// pixels are then taken as sRGB, as without `keep`).
    static func checkedKept(_ profile: [UInt8], source: String, strict: Bool) throws(CodecError) -> [UInt8]? {
        do {
            _ = try ICCProfileConverter.cachedTransform(profile: profile, layout: .rgba, sourceName: source)
            return profile
        } catch  where !strict {
            return nil
        }
    }
}
