import Glibc

/// Per-pixel colour transforms: an affine 3×4 colour matrix and per-channel 256-entry tables.
///
/// Why two tools: an affine map of (r, g, b) commutes with premultiplication — M·(α·c) + o·α =
/// α·(M·c + o) — so a matrix runs on the stored premultiplied bytes directly, semi-transparent
/// pixels included, with no un-premultiply pass. Per-channel curves (contrast with clamping,
/// exposure in linear light, blend-mode look-ups) are not affine, so they see straight colour:
/// opaque pixels (every JPEG) index the table directly; only semi-transparent pixels pay for an
/// un-premultiply and re-premultiply. A table look-up per byte is also the fastest way to run any
/// per-channel function, whatever its cost to evaluate.
public struct ColorMatrix: Hashable, Sendable {
    /// Each row is (red coefficient, green coefficient, blue coefficient, offset), with channels
    /// in 0…1: `red′ = red.x·r + red.y·g + red.z·b + red.w`.
    public var red: SIMD4<Double>
    public var green: SIMD4<Double>
    public var blue: SIMD4<Double>

    public init(red: SIMD4<Double>, green: SIMD4<Double>, blue: SIMD4<Double>) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The matrix that changes nothing.
    public static let identity = ColorMatrix(red: [1, 0, 0, 0], green: [0, 1, 0, 0], blue: [0, 0, 1, 0])

    /// Rec. 709 (sRGB primaries) luma weights, applied to the sRGB-encoded values.
    public static let rec709Weights = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    /// Every channel becomes the Rec. 709 luma `0.2126 R + 0.7152 G + 0.0722 B`.
    public static let rec709Grayscale = saturation(0)

    /// Mixes each pixel with its Rec. 709 luma: 0 is grey, 1 unchanged, above 1 more saturated
    /// (Core Image's `CIColorControls` saturation).
    public static func saturation(_ s: Double) -> ColorMatrix {
        let w = rec709Weights * (1 - s)
        return ColorMatrix(red: [w.x + s, w.y, w.z, 0], green: [w.x, w.y + s, w.z, 0], blue: [w.x, w.y, w.z + s, 0])
    }

    /// True when applying the matrix changes nothing.
    public var isIdentity: Bool { self == .identity }
}

/// A 256-entry table per channel mapping an 8-bit value to an 8-bit value.
public struct ChannelLookupTables: Sendable, Equatable {
    public var red: [UInt8]
    public var green: [UInt8]
    public var blue: [UInt8]
    /// Used only by `mappingStoredBytes`; colour transforms keep alpha.
    public var alpha: [UInt8]

    /// `[0, 1, …, 255]`.
    public static let identityTable: [UInt8] = (0...255).map { UInt8($0) }

    /// Tables that must each hold exactly 256 entries; shorter or longer ones are replaced by the
    /// identity so that a wrong table can never index out of bounds.
    public init(red: [UInt8], green: [UInt8], blue: [UInt8], alpha: [UInt8] = Self.identityTable) {
        func checked(_ t: [UInt8]) -> [UInt8] { t.count == 256 ? t : Self.identityTable }
        self.red = checked(red)
        self.green = checked(green)
        self.blue = checked(blue)
        self.alpha = checked(alpha)
    }

    /// The same table for red, green and blue, identity for alpha.
    public init(colorChannels table: [UInt8]) {
        self.init(red: table, green: table, blue: table)
    }

    /// Tables from a function of a value in 0…1 to 0…1 (clamped and rounded to 8 bits).
    public init(colorChannels transform: (Double) -> Double) {
        self.init(
            colorChannels: (0...255).map { v in
                let y = transform(Double(v) / 255) * 255
                return y.isNaN ? 0 : UInt8(max(0, min(255, y.rounded())))
            })
    }
}

/// A matrix in 16.16 fixed point, rows preserving their sums so greys stay exact.
struct FixedPointColorMatrix {
    /// r, g, b coefficients and offset for each output channel.
    let r: SIMD4<Int>, g: SIMD4<Int>, b: SIMD4<Int>

    init(_ m: ColorMatrix) {
        func row(_ v: SIMD4<Double>) -> SIMD4<Int> {
            // Clamped to ±16 so the kernel's Int32 sums cannot overflow: 4·16·65536·255 < 2^31.
            // (Useful matrices stay far inside: saturation 4 has coefficients below 4.)
            func q(_ x: Double) -> Int { x.isNaN ? 0 : Int((max(-16, min(16, x)) * 65536).rounded()) }
            var out = SIMD4(q(v.x), q(v.y), q(v.z), q(v.w))
            // Give the rounding slack to the largest coefficient so the row sum is exact: then a
            // grey-preserving matrix (rows summing to 1) maps every grey to itself.
            let target = q(v.x + v.y + v.z)
            let slack = target - (out.x + out.y + out.z)
            let largest = [abs(v.x), abs(v.y), abs(v.z)].enumerated().max { $0.element < $1.element }?.offset ?? 0
            out[largest] = max(-16 * 65536, min(16 * 65536, out[largest] + slack))
            return out
        }
        r = row(m.red)
        g = row(m.green)
        b = row(m.blue)
    }

    /// True when all three outputs are the same non-negative mix summing to at most 1 with no
    /// offset (a greyscale conversion): such a sum never exceeds alpha, so it needs no clamping.
    var isGrayscale: Bool {
        r == g && g == b && r[3] == 0 && r[0] >= 0 && r[1] >= 0 && r[2] >= 0 && r[0] + r[1] + r[2] <= 65536
    }
}

/// The sRGB transfer function (IEC 61966-2-1), for operations defined in linear light.
public enum SRGBTransfer {
    /// Encoded sRGB value (0…1) to linear light (0…1).
    public static func toLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light (0…1) to the encoded sRGB value (0…1).
    public static func fromLinear(_ v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }
}
