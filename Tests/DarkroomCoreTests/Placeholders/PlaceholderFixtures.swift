import DarkroomChains
import DarkroomCore

/// The small images `scripts/placeholder-references.py` gives the reference packages, defined by
/// the same formulas, as straight RGBA.
enum PlaceholderFixtures {
    struct Fixture: Sendable {
        var name: String
        var width: Int
        var height: Int
        var pixel: @Sendable (Int, Int) -> (Int, Int, Int, Int)

        /// Straight RGBA, rows tightly packed.
        var rgba: [UInt8] {
            (0..<height).flatMap { y in
                (0..<width).flatMap { x -> [UInt8] in
                    let p = pixel(x, y)
                    return [UInt8(p.0), UInt8(p.1), UInt8(p.2), UInt8(p.3)]
                }
            }
        }
    }

    static let gradient = Fixture(name: "gradient", width: 32, height: 24) { x, y in
        ((x * 8) % 256, (y * 10) % 256, (x * y * 3 + 40) % 256, 255)
    }
    static let stripes = Fixture(name: "stripes", width: 17, height: 29) { x, y in
        ((x / 3) % 2 == 1 ? 200 : 30, ((x + y) * 5) % 256, ((255 - y * 8) % 256 + 256) % 256, 255)
    }
    static let translucent = Fixture(name: "translucent", width: 24, height: 20) { x, y in
        ((x * 11) % 256, (y * 13 + 60) % 256, ((x + y) * 7) % 256, (x * 10 + y * 3) % 256)
    }
    /// An opaque disc on a fully transparent square.
    static let cutout = Fixture(name: "cutout", width: 32, height: 32) { x, y in
        let dx = Double(x) - 15.5
        let dy = Double(y) - 15.5
        return dx * dx + dy * dy < 144 ? (220, (x * 6) % 256, 40, 255) : (0, 0, 0, 0)
    }

    static let all = [gradient, stripes, translucent, cutout]
}
