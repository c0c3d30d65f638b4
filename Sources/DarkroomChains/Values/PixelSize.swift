/// A size in whole pixels.
///
/// Darkroom works in integer pixel grids; fractional geometry appears only inside kernels
/// (resampling offsets, rotation), never in the sizes processors promise to produce.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// The longest side any image may have, and so the largest side a chain may ask for.
    public static let maximumDimension = 65_535

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width × height`, the number of pixels.
    public var area: Int { width * height }

    /// True when either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// `WxH`, the spelling the chain syntax uses.
    public var description: String { "\(width)x\(height)" }

    /// The largest size with this size's aspect ratio that fits inside `box` (Kingfisher's aspectFit).
    /// Each side is at least 1 pixel.
    public func fitting(in box: PixelSize) -> PixelSize {
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return scaled(by: scale)
    }

    /// The smallest size with this size's aspect ratio that covers `box` (Kingfisher's aspectFill).
    public func filling(_ box: PixelSize) -> PixelSize {
        let scale = max(Double(box.width) / Double(width), Double(box.height) / Double(height))
        return scaled(by: scale)
    }

    /// This size multiplied by `scale`, rounded to the nearest pixel and never below 1×1.
    public func scaled(by scale: Double) -> PixelSize {
        PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }
}
