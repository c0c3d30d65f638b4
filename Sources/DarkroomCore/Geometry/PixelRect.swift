import DarkroomChains

/// A rectangle in whole pixels; the origin is the top-left corner, y grows downwards.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(origin: (x: Int, y: Int), size: PixelSize) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    /// The part of this rectangle inside `other`; empty (zero size) when they do not overlap.
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
