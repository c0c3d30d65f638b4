import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Tints the image with a colour (Kingfisher's `TintImageProcessor`).
    ///
    /// Chain text: `tint(#RRGGBBAA)`. The colour, at its own alpha, is composited over the image
    /// with source-atop: it lands only where the image is, in proportion to the image's alpha, and
    /// the image's alpha is unchanged. Per premultiplied channel: `out = c·αimage + image·(1 − αc)`.
    /// `tint(#FF000080)` on an opaque pixel gives half red, half the original; an opaque colour
    /// turns the image into a silhouette of that colour; alpha 00 changes nothing.
    public struct Tint: ImageProcessing, Hashable {
        public var color: RGBAColor

        public init(color: RGBAColor) {
            self.color = color
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.tint) { args in
            Tint(color: args.color("color"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "tint", version: Self.descriptor.version,
                arguments: [("color", .color(color))], positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.compositing(color, .sourceAtop)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Tint {
    /// Composites `color` (at its alpha) over the image where the image is; alpha unchanged.
    public static func tint(_ color: RGBAColor) -> ImageProcessors.Tint { .init(color: color) }
}
