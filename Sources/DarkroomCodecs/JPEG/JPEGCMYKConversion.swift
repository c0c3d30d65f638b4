/// Turns decoded CMYK pixels into opaque RGBA in place when the file embeds no ICC profile.
///
/// Without a profile there is no right answer, only a conventional one: the naive
/// "subtractive" formula R = 255·(1−C)·(1−K), G = 255·(1−M)·(1−K), B = 255·(1−Y)·(1−K) on ink
/// amounts in 0…1 (what browsers and libjpeg-turbo's own tools do). Real presses print darker,
/// duller colours than this, so an embedded profile always takes precedence (see
/// `ICCProfileConverter.convertCMYKToSRGB`).
///
/// Storage convention: a JPEG with an Adobe APP14 marker (Photoshop, ImageMagick, libjpeg's CMYK
/// writer) stores CMYK inverted, 255 meaning no ink; one without it stores plain ink amounts.
/// With inverted values the formula is simply R = C′·K′/255.
enum JPEGCMYKConversion {
    static func convertWithoutProfile(
        _ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
        bytesPerRow: Int, inverted: Bool
    ) {
        // XOR 0xFF turns plain ink amounts into the inverted form (255 − v).
        let flip: UInt8 = inverted ? 0 : 0xFF
        for y in 0..<height {
            var p = pixels + y * bytesPerRow
            for _ in 0..<width {
                let k = UInt32(p[3] ^ flip)
                p[0] = multiply(UInt32(p[0] ^ flip), k)
                p[1] = multiply(UInt32(p[1] ^ flip), k)
                p[2] = multiply(UInt32(p[2] ^ flip), k)
                p[3] = 255
                p += 4
            }
        }
    }

    /// `a × b / 255`, rounded, without a division.
    @inline(__always)
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt8 {
        let t = a &* b &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
    }
}
