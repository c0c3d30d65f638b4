/// Placing and converting the scanlines libspng hands back.
///
/// 8-bit images are decoded by libspng straight into the bitmap's rows. 16-bit images come out
/// as RGBA16 scanlines, which this file narrows to 8 bits *with rounding* (libspng's own RGBA8
/// output drops the low byte, which darkens every channel by up to one step) and premultiplies
/// in the same pass. For an Adam7 image each stored scanline holds every `xStep`-th pixel of one
/// row starting at `xStart`, so the same loop also deinterlaces.
enum PNGScanlines {
    /// Column start and step of Adam7 pass `pass` (0…6).
    private static let adam7XStart = [0, 4, 0, 2, 0, 1, 0]
    private static let adam7XStep = [8, 8, 4, 4, 2, 2, 1]

    /// Where the pixels of a scanline of `pass` land: first column, column step and pixel count.
    /// Non-interlaced images have one pass covering every column.
    static func placement(pass: Int, interlaced: Bool, imageWidth: Int) -> (xStart: Int, xStep: Int, count: Int) {
        guard interlaced, (0..<7).contains(pass) else { return (0, 1, imageWidth) }
        let start = adam7XStart[pass]
        let step = adam7XStep[pass]
        let count = imageWidth > start ? (imageWidth - start + step - 1) / step : 0
        return (start, step, count)
    }

    /// Writes `count` host-endian RGBA16 pixels from `source` as premultiplied RGBA8, pixel `i`
    /// at `destination + i × xStep × 4`. Returns the AND of the written alphas (255 when every
    /// pixel was opaque).
    static func narrowAndPremultiply(
        _ source: UnsafePointer<UInt16>, count: Int,
        to destination: UnsafeMutablePointer<UInt8>, xStep: Int
    ) -> UInt8 {
        var alphaAnd: UInt8 = 255
        var s = source
        var d = destination
        let advance = xStep * 4
        for _ in 0..<count {
            let a = narrow(s[3])
            alphaAnd &= a
            if a == 255 {
                d[0] = narrow(s[0])
                d[1] = narrow(s[1])
                d[2] = narrow(s[2])
            } else {
                let a32 = UInt32(a)
                d[0] = AlphaKernels.multiply(UInt32(narrow(s[0])), a32)
                d[1] = AlphaKernels.multiply(UInt32(narrow(s[1])), a32)
                d[2] = AlphaKernels.multiply(UInt32(narrow(s[2])), a32)
            }
            d[3] = a
            s += 4
            d += advance
        }
        return alphaAnd
    }

    /// `round(v × 255 / 65535)`; exact for every 16-bit value (checked exhaustively in the tests).
    @inline(__always)
    static func narrow(_ v: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(v) &* 255 &+ 32895) >> 16)
    }
}
