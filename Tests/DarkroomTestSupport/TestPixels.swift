import DarkroomChains
import DarkroomCore

/// Premultiplied pixels for the kernel and processor tests: bitmaps made from pixels, pixels read
/// back, and the comparisons the tests make on them.
public enum TestPixels {
    public typealias Pixel = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

    /// A bitmap from rows of premultiplied pixels.
    public static func bitmap(_ rows: [[Pixel]]) -> Bitmap {
        let height = rows.count
        let width = rows[0].count
        let bytes = rows.flatMap { $0.flatMap { [$0.r, $0.g, $0.b, $0.a] } }
        let opaque = rows.allSatisfy { $0.allSatisfy { $0.a == 255 } }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes, isOpaque: opaque)
    }

    /// One premultiplied pixel repeated over a `width × height` image (isOpaque from its alpha).
    public static func filled(_ p: Pixel, width: Int = 4, height: Int = 3) -> Bitmap {
        bitmap(Array(repeating: Array(repeating: p, count: width), count: height))
    }

    /// Every pixel's premultiplied bytes, row by row, ignoring any row padding.
    public static func pixels(_ b: Bitmap) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.premultipliedPixel(x: x, y: y)
                out += [p.r, p.g, p.b, p.a]
            }
        }
        return out
    }

    /// The alpha channel, row by row.
    public static func alphas(_ b: Bitmap) -> [UInt8] {
        (0..<b.height).flatMap { y in (0..<b.width).map { x in b.premultipliedPixel(x: x, y: y).a } }
    }

    /// An opaque image with transparent and semi-transparent pixels mixed in, for alpha checks:
    /// column 0 transparent, column 1 half-transparent, the rest opaque noise.
    public static func mixedAlpha(width: Int = 6, height: Int = 4) -> Bitmap {
        let noise = TestBitmaps.noise(width: width, height: height)
        var rows: [[Pixel]] = []
        for y in 0..<height {
            var row: [Pixel] = []
            for x in 0..<width {
                let p = noise.premultipliedPixel(x: x, y: y)
                switch x {
                case 0: row.append((0, 0, 0, 0))
                case 1: row.append((RGBAColor.multiply(p.r, 128), RGBAColor.multiply(p.g, 128), RGBAColor.multiply(p.b, 128), 128))
                default: row.append(p)
                }
            }
            rows.append(row)
        }
        return bitmap(rows)
    }

    public static func same(_ p: Pixel, _ q: Pixel) -> Bool { p.r == q.r && p.g == q.g && p.b == q.b && p.a == q.a }

    /// True when each channel of `p` is within `tolerance` of the expected values.
    public static func near(_ p: Pixel, _ expected: (Int, Int, Int, Int), tolerance: Int = 1) -> Bool {
        abs(Int(p.r) - expected.0) <= tolerance && abs(Int(p.g) - expected.1) <= tolerance
            && abs(Int(p.b) - expected.2) <= tolerance && abs(Int(p.a) - expected.3) <= tolerance
    }

    /// True when every pixel equals the first.
    public static func isFlat(_ b: Bitmap) -> Bool { isFlat(b, b.premultipliedPixel(x: 0, y: 0)) }

    /// True when every pixel equals `expected` exactly.
    public static func isFlat(_ b: Bitmap, _ expected: Pixel) -> Bool {
        for y in 0..<b.height {
            for x in 0..<b.width where !same(b.premultipliedPixel(x: x, y: y), expected) { return false }
        }
        return true
    }

    /// True when no colour channel exceeds alpha anywhere: the premultiplied invariant.
    public static func isPremultipliedValid(_ b: Bitmap) -> Bool {
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.premultipliedPixel(x: x, y: y)
                if p.r > p.a || p.g > p.a || p.b > p.a { return false }
            }
        }
        return true
    }
}
