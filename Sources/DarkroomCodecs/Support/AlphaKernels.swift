/// Row kernels converting between straight and premultiplied RGBA8, shared by the PNG, WebP and
/// GIF codecs.
///
/// Decoders hand out premultiplied pixels (what `Bitmap` stores) and encoders take straight ones
/// (what PNG and WebP store), so every non-opaque image crosses one of these loops once. They run
/// over raw pointers, one pixel at a time, with no allocation and no bounds checks; the caller
/// guarantees `pixelCount * 4` readable (and writable) bytes.
enum AlphaKernels {
    /// Premultiplies `pixelCount` RGBA pixels in place with rounding (`v × a / 255`, as
    /// `RGBAColor.multiply`). Returns true when every alpha was 255, so a decoder can set
    /// `isOpaque` without a second pass.
    @inline(__always)
    static func premultiplyInPlace(_ pixels: UnsafeMutablePointer<UInt8>, pixelCount: Int) -> Bool {
        var alphaAnd: UInt8 = 255
        var p = pixels
        let end = pixels + pixelCount * 4
        while p < end {
            let a = p[3]
            alphaAnd &= a
            if a != 255 {
                if a == 0 {
                    p[0] = 0
                    p[1] = 0
                    p[2] = 0
                } else {
                    let a32 = UInt32(a)
                    p[0] = multiply(UInt32(p[0]), a32)
                    p[1] = multiply(UInt32(p[1]), a32)
                    p[2] = multiply(UInt32(p[2]), a32)
                }
            }
            p += 4
        }
        return alphaAnd == 255
    }

    /// `v × a / 255` rounded to nearest, for `v, a ≤ 255`, without a division.
    @inline(__always)
    static func multiply(_ v: UInt32, _ a: UInt32) -> UInt8 {
        let t = v &* a &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
    }

    /// Writes straight-alpha RGBA for `pixelCount` premultiplied pixels from `source` to
    /// `destination` (which may be the same memory). Each colour becomes
    /// `min(255, round(c × 255 / a))`, so a premultiplied (128, 0, 0, 128) is written as
    /// (255, 0, 0, 128); fully transparent pixels become (0, 0, 0, 0).
    @inline(__always)
    static func unpremultiply(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        reciprocals.withUnsafeBufferPointer { table in
            guard let reciprocal = table.baseAddress else { return }
            var s = source
            var d = destination
            let end = source + pixelCount * 4
            while s < end {
                let a = s[3]
                if a == 255 {
                    d[0] = s[0]
                    d[1] = s[1]
                    d[2] = s[2]
                    d[3] = 255
                } else if a == 0 {
                    d[0] = 0
                    d[1] = 0
                    d[2] = 0
                    d[3] = 0
                } else {
                    let m = reciprocal[Int(a)]
                    let half = UInt64(a >> 1)
                    d[0] = divide(s[0], m, half)
                    d[1] = divide(s[1], m, half)
                    d[2] = divide(s[2], m, half)
                    d[3] = a
                }
                s += 4
                d += 4
            }
        }
    }

    /// Writes RGB (3 bytes per pixel) for `pixelCount` opaque RGBA pixels: the alpha byte is
    /// dropped. For encoders that store opaque images without an alpha channel.
    @inline(__always)
    static func dropAlpha(_ source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        var s = source
        var d = destination
        let end = source + pixelCount * 4
        while s < end {
            d[0] = s[0]
            d[1] = s[1]
            d[2] = s[2]
            s += 4
            d += 3
        }
    }

    /// `min(255, (c × 255 + a/2) / a)` using `m = ceil(2^24 / a)`: exact for every c, a ≤ 255
    /// (checked exhaustively in the tests), and a multiply instead of a division per channel.
    @inline(__always)
    private static func divide(_ c: UInt8, _ m: UInt64, _ half: UInt64) -> UInt8 {
        let q = ((UInt64(c) &* 255 &+ half) &* m) >> 24
        return q > 255 ? 255 : UInt8(truncatingIfNeeded: q)
    }

    /// `ceil(2^24 / a)` for a in 1…255 (index 0 unused).
    static let reciprocals: [UInt64] = (0..<256).map { a in
        a == 0 ? 0 : (UInt64(1) << 24 + UInt64(a) - 1) / UInt64(a)
    }
}
