import DarkroomCore

/// How the PNG and WebP decoders apply an embedded ICC profile.
///
/// Strict mode fails an image whose profile cannot be used (`.colorProfile`); lenient mode keeps
/// the pixels as they are, treated as sRGB, which is what browsers do with a profile they cannot
/// read.
enum ColorProfilePolicy {
    static func convert(_ bitmap: inout Bitmap, profile: [UInt8], source: String, strict: Bool) throws(CodecError) {
        do {
            try ICCProfileConverter.convertToSRGB(&bitmap, profile: profile, sourceName: source)
        } catch  where !strict {
            return
        }
    }
}
