import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Removes a uniform border: `trim(threshold: 10, color: corner)`.
    ///
    /// A pixel is border when none of its four premultiplied channels differs from the border
    /// colour's by more than `threshold` (0…255); the result is the smallest rectangle holding
    /// every other pixel, as `vips find_trim` finds it (which flattens alpha and median-filters
    /// first, so the two agree exactly on noise-free opaque images). The border colour is `color`
    /// when given, else the top-left pixel's. An image that is all border is returned unchanged:
    /// there is no empty image to return, and any single pixel kept instead would be an
    /// arbitrary choice that loses the size — unchanged is what a chain can rely on and undo.
    /// Pixels are copied, not resampled.
    public struct Trim: ImageProcessing, Hashable {
        /// How far a channel may be from the border colour's and still count as border.
        public var threshold: Double
        /// The border colour; nil reads it from the top-left pixel.
        public var color: RGBAColor?

        /// A NaN threshold becomes 10; others are clamped into 0…255.
        public init(threshold: Double = 10, color: RGBAColor? = nil) {
            self.threshold = ColorParameter.clamp(threshold, to: 0...255, fallback: 10)
            self.color = color
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.trim) { args in
            let color: RGBAColor? =
                if case .color(let given) = args.value("color") { given } else { nil }
            return Trim(threshold: args.number("threshold"), color: color)
        }

        public var invocation: ProcessorInvocation {
            let color: ArgumentValue = color.map { .color($0) } ?? .word(StandardProcessorSpecs.trimCornerColor)
            return ProcessorInvocation(
                name: "trim", version: Self.descriptor.version,
                arguments: [("threshold", .number(threshold)), ("color", color)])
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            guard let box = contentRect(of: bitmap) else { return bitmap }
            return try bitmap.cropped(to: box)
        }

        /// The rectangle `process` keeps: the smallest one holding every pixel that is not
        /// border; nil when the whole image is border.
        public func contentRect(of bitmap: Bitmap) -> PixelRect? {
            let corner = color?.premultiplied ?? bitmap.premultipliedPixel(x: 0, y: 0)
            let border = [corner.r, corner.g, corner.b, corner.a]
            let limit = Int(threshold.rounded(.down))
            return bitmap.withUnsafeBytes { bytes -> PixelRect? in
                func isContent(_ x: Int, _ y: Int) -> Bool {
                    let i = y * bitmap.bytesPerRow + x * 4
                    return abs(Int(bytes[i]) - Int(border[0])) > limit || abs(Int(bytes[i + 1]) - Int(border[1])) > limit
                        || abs(Int(bytes[i + 2]) - Int(border[2])) > limit || abs(Int(bytes[i + 3]) - Int(border[3])) > limit
                }
                func rowHasContent(_ y: Int) -> Bool { (0..<bitmap.width).contains { isContent($0, y) } }
                guard let top = (0..<bitmap.height).first(where: rowHasContent) else { return nil }
                let bottom = (top..<bitmap.height).last(where: rowHasContent)!
                var left = bitmap.width - 1
                var right = 0
                for y in top...bottom {
                    if let first = (0...left).first(where: { isContent($0, y) }) { left = first }
                    if let last = (right..<bitmap.width).last(where: { isContent($0, y) }) { right = last }
                }
                return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Trim {
    /// Removes a border of `color` (the top-left pixel's when nil), within `threshold` per channel.
    public static func trim(threshold: Double = 10, color: RGBAColor? = nil) -> ImageProcessors.Trim {
        .init(threshold: threshold, color: color)
    }
}
