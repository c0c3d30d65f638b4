import Glibc

/// Wolt's BlurHash (github.com/woltapp/blurhash, "Algorithm" in its README): the image as a few
/// cosine components in linear light, quantised and written in base 83.
///
/// Written from the published description, and held equal to the `blurhash` PyPI package and
/// Wolt's TypeScript encoder by `BlurHashTests` (the expectations come from
/// `scripts/placeholder-references.py`). The arithmetic keeps the reference's order of operations,
/// so the floating-point sums, and so the quantised digits, are the same.
///
/// BlurHash has no alpha: like the reference encoders, which read R, G and B and skip A, it uses
/// the straight (unpremultiplied) colour of every pixel, whatever its alpha.
public enum BlurHash {
    /// The component counts Darkroom uses: 4 across, 3 down (Wolt's suggested default for a
    /// landscape image, 20 characters).
    public static let defaultComponents = (x: 4, y: 3)

    /// The hash of a straight (not premultiplied) RGBA image, rows `width * 4` bytes apart.
    /// `componentsX` and `componentsY` are 1…9.
    public static func encode(rgba: [UInt8], width: Int, height: Int, componentsX: Int = 4, componentsY: Int = 3) -> String {
        precondition((1...9).contains(componentsX) && (1...9).contains(componentsY), "BlurHash components are 1…9")
        precondition(width > 0 && height > 0 && rgba.count >= width * height * 4, "BlurHash needs the whole image")
        let linear = SRGB.toLinearTable
        let w = Double(width)
        let h = Double(height)
        var components: [(r: Double, g: Double, b: Double)] = []
        var maximumAC = 0.0
        for j in 0..<componentsY {
            let cosY = (0..<height).map { y in cos(Double.pi * Double(j) * Double(y) / h) }
            for i in 0..<componentsX {
                let normalisation = (i == 0 && j == 0) ? 1.0 : 2.0
                let cosX = (0..<width).map { x in cos(Double.pi * Double(i) * Double(x) / w) }
                var r = 0.0
                var g = 0.0
                var b = 0.0
                for y in 0..<height {
                    for x in 0..<width {
                        // (normalisation × cos x) × cos y, as the reference multiplies.
                        let basis = normalisation * cosX[x] * cosY[y]
                        let p = (y * width + x) * 4
                        r += basis * linear[Int(rgba[p])]
                        g += basis * linear[Int(rgba[p + 1])]
                        b += basis * linear[Int(rgba[p + 2])]
                    }
                }
                let scale = w * h
                components.append((r / scale, g / scale, b / scale))
                if i != 0 || j != 0 { maximumAC = max(maximumAC, abs(r / scale), abs(g / scale), abs(b / scale)) }
            }
        }

        let dc = components[0]
        let dcValue = (SRGB.fromLinear(dc.r) << 16) + (SRGB.fromLinear(dc.g) << 8) + SRGB.fromLinear(dc.b)
        let quantisedMaximum = Int(max(0, min(82, (maximumAC * 166 - 0.5).rounded(.down))))
        let acNormalisation = Double(quantisedMaximum + 1) / 166

        var hash = ""
        hash.reserveCapacity(6 + 2 * (components.count - 1))
        Base83.append((componentsX - 1) + (componentsY - 1) * 9, length: 1, to: &hash)
        Base83.append(quantisedMaximum, length: 1, to: &hash)
        Base83.append(dcValue, length: 4, to: &hash)
        for component in components.dropFirst() {
            let value =
                quantiseAC(component.r / acNormalisation) * 19 * 19 + quantiseAC(component.g / acNormalisation) * 19
                + quantiseAC(component.b / acNormalisation)
            Base83.append(value, length: 2, to: &hash)
        }
        return hash
    }

    /// An AC component (already divided by the maximum) as 0…18: the square root keeps its sign.
    private static func quantiseAC(_ value: Double) -> Int {
        // pow rather than squareRoot: the reference's `signPow(value, 0.5)`, to the last bit.
        let root = value < 0 ? -pow(-value, 0.5) : pow(value, 0.5)
        return Int(max(0, min(18, (root * 9 + 9.5).rounded(.down))))
    }
}

/// BlurHash's base 83 digits.
enum Base83 {
    static let alphabet: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// `value` as `length` digits, most significant first.
    static func append(_ value: Int, length: Int, to text: inout String) {
        var divisor = 1
        for _ in 1..<max(1, length) { divisor *= 83 }
        for _ in 0..<length {
            text.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }
}

/// The sRGB transfer function, as BlurHash's reference writes it.
enum SRGB {
    /// Each 8-bit sRGB value in linear light, 0…1.
    static let toLinearTable: [Double] = (0..<256).map { byte in
        let value = Double(byte) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// A linear value (clamped to 0…1) as 8-bit sRGB, rounded half up.
    static func fromLinear(_ linear: Double) -> Int {
        let value = max(0, min(1, linear))
        if value <= 0.0031308 { return Int(value * 12.92 * 255 + 0.5) }
        return Int((1.055 * pow(value, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
