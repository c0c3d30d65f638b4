import DarkroomSystem

/// An sRGB colour with straight (not premultiplied) alpha, as written in chains: `#RRGGBB[AA]`.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive). Returns nil for anything else.
    public init?(hex text: String) {
        guard text.first == "#" else { return nil }
        let digits = Array(text.utf8.dropFirst())
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var values: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = HexDigits.value(digits[index]), let low = HexDigits.value(digits[index + 1]) else { return nil }
            values.append(high << 4 | low)
            index += 2
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    /// The colour with its alpha multiplied in, the form `Bitmap` stores.
    public var premultiplied: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        (Self.multiply(red, alpha), Self.multiply(green, alpha), Self.multiply(blue, alpha), alpha)
    }

    /// True when alpha is 255.
    public var isOpaque: Bool { alpha == 255 }

    /// Canonical spelling: `#RRGGBBAA`, upper-case, always eight digits.
    public var description: String {
        let digits = HexDigits.uppercaseDigits
        var out: [UInt8] = [UInt8(ascii: "#")]
        for value in [red, green, blue, alpha] {
            out.append(digits[Int(value >> 4)])
            out.append(digits[Int(value & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value × alpha / 255`, rounded.
    @inlinable @inline(__always)
    public static func multiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
        let product = UInt32(value) * UInt32(alpha) + 128
        return UInt8((product + (product >> 8)) >> 8)
    }
}
