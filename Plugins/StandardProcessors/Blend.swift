import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Blends a solid colour layer onto the image with a blend mode (Kingfisher's
    /// `BlendImageProcessor`, with the W3C Compositing and Blending Level 1 formulas).
    ///
    /// Chain text: `blend(mode, #RRGGBB[AA])`, both required, positional or named
    /// (`blend(mode: multiply, color: #808080)`). Modes: normal, multiply, screen, overlay,
    /// darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion (the
    /// spec's separable modes). The colour's alpha is the layer's opacity. The layer is composited
    /// source-atop, so the image's alpha is unchanged; on an opaque pixel the result is
    /// `αc·B(image, colour) + (1 − αc)·image`, and on a semi-transparent one the spec's full
    /// formula with the backdrop alpha applies (see `BlendMode`).
    public struct Blend: ImageProcessing, Hashable {
        public var mode: BlendMode
        public var color: RGBAColor

        public init(mode: BlendMode, color: RGBAColor) {
            self.mode = mode
            self.color = color
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.blend) { args in
            guard let mode = BlendMode(rawValue: args.word("mode")) else {
                throw args.invalid("mode", "must be one of \(BlendMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return Blend(mode: mode, color: args.color("color"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "blend", version: Self.descriptor.version,
                arguments: [("mode", .word(mode.rawValue)), ("color", .color(color))], positionalCount: 2)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.blending(color, mode: mode)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Blend {
    /// Blends a layer of `color` onto the image with `mode`; alpha unchanged.
    public static func blend(mode: BlendMode, color: RGBAColor) -> ImageProcessors.Blend {
        .init(mode: mode, color: color)
    }
}
