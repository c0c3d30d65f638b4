import DarkroomChains
import DarkroomCore

/// The small copy of an image `smartCrop(strategy: entropy)` scores windows on, and the search over
/// window positions (`attention` scores its own coarse grid: `SmartCropAttention`).
///
/// Scoring at full size would cost more than the crop itself and see noise rather than subjects:
/// the covering image is reduced to at most `longestSide` pixels (never enlarged past the covering
/// size), un-premultiplied to straight RGB in 0…1 with its alpha kept as a weight.
struct SmartCropSample {
    /// The longest side of the copy that is scored.
    static let longestSide = 192

    let width: Int
    let height: Int
    /// Straight red, green, blue and alpha of each pixel, row-major, in 0…1.
    let red: [Double], green: [Double], blue: [Double], alpha: [Double]

    init(_ bitmap: Bitmap, covering: PixelSize) throws {
        let reduction = min(1, Double(Self.longestSide) / Double(max(covering.width, covering.height)))
        let size = covering.scaled(by: reduction)
        let small = try bitmap.resampled(to: size, from: bitmap.logicalRegion)
        let (w, h) = (size.width, size.height)
        var r = [Double](repeating: 0, count: w * h)
        var g = r
        var b = r
        var a = r
        small.withUnsafeBytes { bytes in
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * small.bytesPerRow + x * 4
                    let alpha = Double(bytes[i + 3])
                    let k = y * w + x
                    a[k] = alpha / 255
                    guard alpha > 0 else { continue }
                    r[k] = Double(bytes[i]) / alpha
                    g[k] = Double(bytes[i + 1]) / alpha
                    b[k] = Double(bytes[i + 2]) / alpha
                }
            }
        }
        width = w
        height = h
        red = r
        green = g
        blue = b
        alpha = a
    }

    /// BT.601 luma of pixel `k`, in 0…1.
    func luma(_ k: Int) -> Double { 0.299 * red[k] + 0.587 * green[k] + 0.114 * blue[k] }

    /// The origin, in the covering grid, of the `kept` window whose `score` (given the window in
    /// this copy's pixels) is greatest; among scores equal to within 1e-9 of the best, the one
    /// nearest the centre, so a featureless image is cropped in the middle.
    func bestOrigin(
        of kept: PixelSize, in covering: PixelSize, score: (_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Double
    ) -> (x: Int, y: Int) {
        let sx = Double(width) / Double(covering.width)
        let sy = Double(height) / Double(covering.height)
        let w = min(width, max(1, Int((Double(kept.width) * sx).rounded())))
        let h = min(height, max(1, Int((Double(kept.height) * sy).rounded())))
        let centre = (x: Double(width - w) / 2, y: Double(height - h) / 2)
        var best = (x: 0, y: 0, score: -Double.infinity, distance: Double.infinity)
        for y in 0...(height - h) {
            for x in 0...(width - w) {
                let s = score(x, y, w, h)
                let distance = (Double(x) - centre.x) * (Double(x) - centre.x) + (Double(y) - centre.y) * (Double(y) - centre.y)
                let tolerance = 1e-9 * max(1, abs(best.score.isFinite ? best.score : 0))
                if s > best.score + tolerance || (abs(s - best.score) <= tolerance && distance < best.distance) {
                    best = (x, y, s, distance)
                }
            }
        }
        // Back to the covering grid, kept inside it.
        let x = min(covering.width - kept.width, max(0, Int((Double(best.x) / sx).rounded())))
        let y = min(covering.height - kept.height, max(0, Int((Double(best.y) / sy).rounded())))
        return (x, y)
    }
}

/// Sums of a per-pixel value over any rectangle in constant time (a summed-area table).
struct SummedArea {
    let width: Int
    private var table: [Double]

    /// `values` is row-major, `width` × `height`.
    init(width: Int, height: Int, values: [Double]) {
        self.width = width
        let stride = width + 1
        var table = [Double](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row = 0.0
            for x in 0..<width {
                row += values[y * width + x]
                table[(y + 1) * stride + x + 1] = table[y * stride + x + 1] + row
            }
        }
        self.table = table
    }

    func sum(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        let stride = width + 1
        return table[(y + h) * stride + x + w] - table[y * stride + x + w] - table[(y + h) * stride + x] + table[y * stride + x]
    }
}
