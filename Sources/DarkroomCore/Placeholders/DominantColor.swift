/// The dominant colour of an image, defined simply so anyone can recompute it
/// (docs/placeholders.md): each pixel at least half opaque (alpha ≥ 128; every pixel when none
/// is) falls in one of 512 bins by the top 3 bits of its straight red, green and blue; the most
/// populated bin wins (the lowest bin number on a tie: red, then green, then blue, darker first);
/// the colour is the mean of that bin's pixels, each channel rounded half up.
///
/// A coarse histogram rather than the mean colour, which for a photo is a muddy mix of its parts,
/// and rather than k-means, whose answer depends on its seeds.
public enum DominantColor {
    /// The dominant colour of a straight (not premultiplied) RGBA image, rows `width * 4` bytes
    /// apart, as `#rrggbb` in lower case.
    public static func hex(rgba: [UInt8], width: Int, height: Int) -> String {
        let (r, g, b) = rgb(rgba: rgba, width: width, height: height)
        return "#" + [r, g, b].map(hexByte).joined()
    }

    /// The dominant colour's red, green and blue.
    public static func rgb(rgba: [UInt8], width: Int, height: Int) -> (UInt8, UInt8, UInt8) {
        let pixels = width * height
        precondition(pixels > 0 && rgba.count >= pixels * 4, "DominantColor needs the whole image")
        let anyOpaque = (0..<pixels).contains { rgba[$0 * 4 + 3] >= 128 }
        var counts = [Int](repeating: 0, count: 512)
        var sums = [(r: Int, g: Int, b: Int)](repeating: (0, 0, 0), count: 512)
        for i in 0..<pixels where !anyOpaque || rgba[i * 4 + 3] >= 128 {
            let r = Int(rgba[i * 4])
            let g = Int(rgba[i * 4 + 1])
            let b = Int(rgba[i * 4 + 2])
            let bin = (r >> 5) << 6 | (g >> 5) << 3 | (b >> 5)
            counts[bin] += 1
            sums[bin].r += r
            sums[bin].g += g
            sums[bin].b += b
        }
        var best = 0
        for bin in 1..<512 where counts[bin] > counts[best] { best = bin }
        let count = counts[best]
        func mean(_ sum: Int) -> UInt8 { UInt8((sum + count / 2) / count) }
        return (mean(sums[best].r), mean(sums[best].g), mean(sums[best].b))
    }

    private static func hexByte(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
    }
}
