import Glibc

/// Evan Wallace's ThumbHash (evanw.github.io/thumbhash, its README's description): the image,
/// composited on its own average colour, as cosine components of luminance, two colour
/// differences and (when not opaque) alpha, with a 5-byte header.
///
/// Written from the published description and held equal, by `ThumbHashTests`, to the official
/// `thumbhash` crate (through the `fast-thumbhash` PyPI package) and the `thumbhash` PyPI package
/// (opaque images: its alpha path fails); `scripts/placeholder-references.py` makes the
/// expectations. Rounding is the JavaScript reference's `Math.round` (half up), which the crate
/// shares; the pure-Python port rounds half to even, which differs only on exact ties.
///
/// Alpha is the reference's: pixels are weighted by alpha for the average colour, composited on
/// it, and an image with any transparency gets an alpha channel (5×5 components) and fewer
/// luminance components.
public enum ThumbHash {
    /// The largest side the reference accepts; the image is scaled to fit first.
    public static let maximumSide = 100

    /// The hash bytes of a straight (not premultiplied) RGBA image of at most 100×100, rows
    /// `width * 4` bytes apart.
    public static func encode(rgba: [UInt8], width w: Int, height h: Int) -> [UInt8] {
        precondition((1...maximumSide).contains(w) && (1...maximumSide).contains(h), "ThumbHash takes at most 100x100")
        precondition(rgba.count >= w * h * 4, "ThumbHash needs the whole image")
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            average.r += alpha / 255 * Double(rgba[i * 4])
            average.g += alpha / 255 * Double(rgba[i * 4 + 1])
            average.b += alpha / 255 * Double(rgba[i * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(w * h)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, round(luminanceLimit * Double(w) / longest))
        let ly = max(1, round(luminanceLimit * Double(h) / longest))

        // Luminance, yellow−blue, red−green and alpha, each pixel composited on the average.
        var l = [Double](repeating: 0, count: w * h)
        var p = l
        var q = l
        var a = l
        for i in 0..<(w * h) {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[i * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[i * 4 + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        let luminance = channel(l, w: w, h: h, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = channel(p, w: w, h: h, nx: 3, ny: 3)
        let redGreen = channel(q, w: w, h: h, nx: 3, ny: 3)
        let transparency = hasAlpha ? channel(a, w: w, h: h, nx: 5, ny: 5) : nil

        let isLandscape = w > h
        var header24: Int = round(63 * luminance.dc)
        header24 |= round(31.5 + 31.5 * yellowBlue.dc) << 6
        header24 |= round(31.5 + 31.5 * redGreen.dc) << 12
        header24 |= round(31 * luminance.scale) << 18
        if hasAlpha { header24 |= 1 << 23 }
        var header16: Int = isLandscape ? ly : lx
        header16 |= round(63 * yellowBlue.scale) << 3
        header16 |= round(63 * redGreen.scale) << 9
        if isLandscape { header16 |= 1 << 15 }
        var hash: [UInt8] = [
            UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16), UInt8(header16 & 255), UInt8(header16 >> 8),
        ]
        if let transparency { hash.append(UInt8(round(15 * transparency.dc) | (round(15 * transparency.scale) << 4))) }
        // The AC factors, four bits each, low nibble first.
        let factors = luminance.ac + yellowBlue.ac + redGreen.ac + (transparency?.ac ?? [])
        for (index, factor) in factors.enumerated() {
            let nibble = UInt8(round(15 * factor))
            if index & 1 == 0 { hash.append(nibble) } else { hash[hash.count - 1] |= nibble << 4 }
        }
        return hash
    }

    /// The hash in standard base64 with padding: how the reference's demo prints it.
    public static func base64(_ hash: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        var index = 0
        while index < hash.count {
            let count = min(3, hash.count - index)
            var group = 0
            for offset in 0..<3 { group = group << 8 | (offset < count ? Int(hash[index + offset]) : 0) }
            for digit in 0..<4 { text.append(digit <= count ? alphabet[(group >> (18 - 6 * digit)) & 63] : "=") }
            index += 3
        }
        return text
    }

    /// One channel's DC term, its AC terms mapped to 0…1, and their scale. Components are those
    /// with `cx * ny < nx * (ny - cy)`: a triangle, since the high corners carry little.
    private static func channel(_ values: [Double], w: Int, h: Int, nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
        var fx = [Double](repeating: 0, count: w)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                var f = 0.0
                for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                for y in 0..<h {
                    let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                }
                f /= Double(w * h)
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// JavaScript's `Math.round` for the non-negative values ThumbHash rounds: half up.
    private static func round(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }
}
