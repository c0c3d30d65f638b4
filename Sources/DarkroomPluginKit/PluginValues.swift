/// A size in pixels: a SIZE argument (`400x300`), or an image's size in `outputSize(for:arguments:)`.
public struct PluginSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WxH`, as chain text writes it.
    public var description: String { "\(width)x\(height)" }
}

/// A COLOR argument: straight (not premultiplied) red, green, blue and alpha.
public struct PluginColor: Hashable, Sendable, CustomStringConvertible {
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

    /// `#RRGGBBAA`, as chain text writes it.
    public var description: String {
        "#" + [red, green, blue, alpha].map { byte in String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true) }.joined()
    }
}
