import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Draws a border inside the image's edge (Kingfisher's `BorderImageProcessor`).
    ///
    /// Chain text: `border(width, #RRGGBB[AA], radius: 0)`. The border is `width` pixels (> 0,
    /// fractions allowed and anti-aliased) measured inward from the edge, so the canvas size is
    /// unchanged; its colour is composited over the image (source-over, at the colour's alpha).
    /// With `radius > 0` the outer edge is a rounded rectangle of that radius (clamped to half the
    /// shorter side), the inner edge follows with radius `max(0, radius − width)` as CSS borders
    /// do, and the pixels outside the outer rounding become transparent — so the output may be
    /// transparent, and a JPEG source is then written as PNG. A width of half the shorter side
    /// or more covers the whole image.
    public struct Border: ImageProcessing, Hashable {
        /// Border width in pixels (0 draws nothing).
        public var width: Double
        public var color: RGBAColor
        /// Outer corner radius in pixels; 0 for square corners.
        public var radius: Double

        /// Negative or NaN widths and radii become 0; values above 65535 become 65535.
        public init(width: Double, color: RGBAColor, radius: Double = 0) {
            self.width = ColorParameter.clamp(width, to: 0...ColorParameter.maximumPixels, fallback: 0)
            self.color = color
            self.radius = ColorParameter.clamp(radius, to: 0...ColorParameter.maximumPixels, fallback: 0)
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.border) { args in
            Border(
                width: args.number("width"), color: args.color("color"),
                radius: args.number("radius"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "border", version: Self.descriptor.version,
                arguments: [
                    ("width", .number(width)), ("color", .color(color)), ("radius", .number(radius)),
                ], positionalCount: 2)
        }

        public var introducesTransparency: Bool { radius > 0 }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            guard width > 0 || radius > 0 else { return bitmap }
            let outer = RoundedRectCoverage(width: bitmap.width, height: bitmap.height, radii: CornerRadii(all: radius))
            let innerRadius = max(0, outer.radii.topLeft - width)
            let inner = RoundedRectCoverage(
                minX: width, minY: width, maxX: Double(bitmap.width) - width,
                maxY: Double(bitmap.height) - width, radii: CornerRadii(all: innerRadius))
            return try bitmap.framed(outer: outer, inner: inner, color: color)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Border {
    /// A `width`-pixel border of `color` inside the edge; `radius` rounds its outer corners.
    public static func border(width: Double, color: RGBAColor, radius: Double = 0) -> ImageProcessors.Border {
        .init(width: width, color: color, radius: radius)
    }
}
