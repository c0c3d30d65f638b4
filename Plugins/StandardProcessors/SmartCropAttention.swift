import DarkroomChains
import DarkroomCore
import Glibc

/// `smartCrop`'s attention strategy: a coarse map of where the eye is drawn, smoothed over an
/// area the size of the window, and the cell the window is centred on.
///
/// 1. The covering image is resampled onto a grid of `cells` × `cells` (fewer along a side
///    shorter than that): each cell is the same fraction of the width and of the height, whatever
///    the aspect ratio, so the grid sets how finely the window can be placed, not how much detail is
///    seen. Colour stays premultiplied, so transparent areas read as black and score nothing.
/// 2. Each cell scores `edge + skin + warmth`, from its colour in CIE XYZ (sRGB, D65, Y in 0…100):
///    - edge: 5 × the absolute discrete Laplacian of Y (4 × the cell − its four neighbours, edges
///      extended): detail and outlines;
///    - skin: 100 × (1 − the distance between the cell's XYZ direction and that of a skin tone,
///      sRGB (224, 172, 140)), so 100 on skin and below 0 for colours far from it (blue, green);
///    - warmth: CIELAB a*, positive for reds and magentas, negative for greens: flowers, faces and
///      painted things draw the eye, foliage is background.
///    Skin and warmth count only where Y > 5 (about L* 27), as the chroma of a near-black cell is noise.
/// 3. The map is smoothed by a Gaussian whose σ is a tenth of the window's diagonal in cells (at least
///    1), cut where its weight falls below a fifth of its peak, edges extended: a window is placed
///    over a region that holds interest at the window's own scale, not over one stray cell.
/// 4. The window is centred on the highest cell: its left (top) edge goes half a window before that
///    cell's left (top) edge, kept inside the image. These are the measures and placement
///    `vips smartcrop --interesting attention` uses, so the two agree on where a photo's subject is
///    (docs/benchmarks.md, "Where smartCrop(attention) puts its window").
struct SmartCropAttention {
    /// Cells along each side of the grid the map is computed on.
    static let cells = 32

    let columns: Int
    let rows: Int
    /// The smoothed score of each cell, row-major.
    let smoothed: [Double]

    /// Scores `bitmap` (any size; the map is of its logical extent) for a window of `kept` pixels
    /// in an image scaled to `covering`.
    init(_ bitmap: Bitmap, covering: PixelSize, kept: PixelSize) throws {
        columns = min(Self.cells, covering.width)
        rows = min(Self.cells, covering.height)
        let grid = try bitmap.resampled(to: PixelSize(width: columns, height: rows), from: bitmap.logicalRegion)
        let raw = Self.scores(of: grid)
        let cellWidth = Double(covering.width) / Double(columns)
        let cellHeight = Double(covering.height) / Double(rows)
        let diagonal = hypot(Double(kept.width) / cellWidth, Double(kept.height) / cellHeight)
        smoothed = Self.smoothed(raw, columns: columns, rows: rows, sigma: max(1, diagonal / 10))
    }

    /// The highest cell, or nil when no cell stands out (a flat image): among cells scoring equally,
    /// the one nearest the grid's centre.
    var peak: (x: Int, y: Int)? {
        let centre = (x: Double(columns - 1) / 2, y: Double(rows - 1) / 2)
        var best = (x: 0, y: 0, score: -Double.infinity, distance: Double.infinity)
        var lowest = Double.infinity
        for y in 0..<rows {
            for x in 0..<columns {
                let score = smoothed[y * columns + x]
                lowest = min(lowest, score)
                let distance = (Double(x) - centre.x) * (Double(x) - centre.x) + (Double(y) - centre.y) * (Double(y) - centre.y)
                let tolerance = Self.tolerance * max(1, abs(best.score.isFinite ? best.score : 0))
                if score > best.score + tolerance || (abs(score - best.score) <= tolerance && distance < best.distance) {
                    best = (x, y, score, distance)
                }
            }
        }
        return best.score - lowest > Self.tolerance * max(1, abs(best.score)) ? (best.x, best.y) : nil
    }

    /// Scores closer than this (relative to their size) are equal.
    static let tolerance = 1e-9

    /// The origin, in the covering grid, of the `kept` window placed on `cell` (step 4 above).
    func origin(of kept: PixelSize, in covering: PixelSize, on cell: (x: Int, y: Int)) -> (x: Int, y: Int) {
        let left = Double(cell.x) * Double(covering.width) / Double(columns) - Double(kept.width / 2)
        let top = Double(cell.y) * Double(covering.height) / Double(rows) - Double(kept.height / 2)
        return (
            min(covering.width - kept.width, max(0, Int(left.rounded(.down)))),
            min(covering.height - kept.height, max(0, Int(top.rounded(.down))))
        )
    }

    // MARK: - The per-cell score

    /// `edge + skin + warmth` of every pixel of `grid` (step 2).
    static func scores(of grid: Bitmap) -> [Double] {
        let (width, height) = (grid.width, grid.height)
        var xyz = [CIEXYZ](repeating: CIEXYZ(x: 0, y: 0, z: 0), count: width * height)
        grid.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * grid.bytesPerRow + x * 4
                    xyz[y * width + x] = CIEXYZ(sRGB: bytes[i], bytes[i + 1], bytes[i + 2])
                }
            }
        }
        var scores = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                func luminance(_ dx: Int, _ dy: Int) -> Double {
                    xyz[min(height - 1, max(0, y + dy)) * width + min(width - 1, max(0, x + dx))].y
                }
                let laplacian = 4 * luminance(0, 0) - luminance(-1, 0) - luminance(1, 0) - luminance(0, -1) - luminance(0, 1)
                let colour = xyz[y * width + x]
                var score = 5 * abs(laplacian)
                if colour.y > 5 {
                    score += 100 * (1 - colour.directionDistance(to: skinTone)) + colour.labA
                }
                scores[y * width + x] = score
            }
        }
        return scores
    }

    /// The skin tone whose XYZ direction the skin term measures closeness to.
    static let skinTone = CIEXYZ(sRGB: 224, 172, 140)

    // MARK: - Smoothing

    /// `values` (row-major) convolved with a Gaussian of `sigma` cells along each axis (step 3).
    static func smoothed(_ values: [Double], columns: Int, rows: Int, sigma: Double) -> [Double] {
        // Cut where exp(-r²/2σ²) < 1/5: r = σ√(2 ln 5).
        let radius = max(1, Int((sigma * (2 * log(5.0)).squareRoot()).rounded(.down)))
        var weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        func pass(_ input: [Double], along horizontal: Bool) -> [Double] {
            var output = [Double](repeating: 0, count: input.count)
            for y in 0..<rows {
                for x in 0..<columns {
                    var sum = 0.0
                    for (k, weight) in weights.enumerated() {
                        let offset = k - radius
                        let sx = horizontal ? min(columns - 1, max(0, x + offset)) : x
                        let sy = horizontal ? y : min(rows - 1, max(0, y + offset))
                        sum += weight * input[sy * columns + sx]
                    }
                    output[y * columns + x] = sum
                }
            }
            return output
        }
        return pass(pass(values, along: true), along: false)
    }
}

/// A colour in CIE XYZ (D65 white, Y from 0 to 100), converted from 8-bit sRGB.
struct CIEXYZ {
    let x: Double, y: Double, z: Double

    init(x: Double, y: Double, z: Double) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    init(sRGB red: UInt8, _ green: UInt8, _ blue: UInt8) {
        let (r, g, b) = (Self.linear[Int(red)], Self.linear[Int(green)], Self.linear[Int(blue)])
        x = 100 * (0.4124 * r + 0.3576 * g + 0.1805 * b)
        y = 100 * (0.2126 * r + 0.7152 * g + 0.0722 * b)
        z = 100 * (0.0193 * r + 0.1192 * g + 0.9505 * b)
    }

    /// The sRGB transfer function undone, per 8-bit code value.
    static let linear: [Double] = (0...255).map { code in
        let c = Double(code) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// The Euclidean distance between the unit vectors of the two colours (0 for the same hue and
    /// chroma at any brightness, up to 2).
    func directionDistance(to other: CIEXYZ) -> Double {
        let length = max(1e-9, (x * x + y * y + z * z).squareRoot())
        let otherLength = max(1e-9, (other.x * other.x + other.y * other.y + other.z * other.z).squareRoot())
        let dx = x / length - other.x / otherLength
        let dy = y / length - other.y / otherLength
        let dz = z / length - other.z / otherLength
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// CIELAB a* (D65): red-magenta positive, green negative.
    var labA: Double {
        func f(_ t: Double) -> Double {
            t > 216.0 / 24389 ? cbrt(t) : t * 841.0 / 108 + 4.0 / 29
        }
        return 500 * (f(x / 95.047) - f(y / 100))
    }
}
