import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Covers the image with a colour, letting a fraction of the original show through
    /// (Kingfisher's `OverlayImageProcessor`).
    ///
    /// Chain text: `overlay(#RRGGBB[AA], fraction: 0.5)`. `fraction` in 0…1 is how much of the
    /// original shows: 0 paints the image's shape in the solid colour, 1 leaves it unchanged. The
    /// colour's own alpha scales its strength further. Exactly: source-atop of the colour at
    /// opacity `αc·(1 − fraction)` (so `overlay(c, f)` equals `tint` with that alpha), which keeps
    /// the image's alpha; on opaque pixels with an opaque colour this is
    /// `out = fraction·image + (1 − fraction)·colour`, Kingfisher's result. (Kingfisher draws the
    /// image atop at alpha `fraction`, which on semi-transparent pixels weights the image by its
    /// alpha twice; Darkroom does not.)
    public struct Overlay: ImageProcessing, Hashable {
        public var color: RGBAColor
        /// How much of the original shows through, 0…1.
        public var fraction: Double

        /// `fraction` is clamped into 0…1 (NaN becomes 0.5).
        public init(color: RGBAColor, fraction: Double = 0.5) {
            self.color = color
            self.fraction = ColorParameter.clamp(fraction, to: 0...1, fallback: 0.5)
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.overlay) { args in
            Overlay(color: args.color("color"), fraction: args.number("fraction"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "overlay", version: Self.descriptor.version,
                arguments: [("color", .color(color)), ("fraction", .number(fraction))], positionalCount: 1)
        }

        /// The colour with the alpha the source-atop composite uses: `αc·(1 − fraction)`.
        var effectiveColor: RGBAColor {
            var c = color
            c.alpha = UInt8((Double(color.alpha) * (1 - fraction)).rounded())
            return c
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.compositing(effectiveColor, .sourceAtop)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Overlay {
    /// Covers the image's shape with `color`; `fraction` (0…1) of the original shows through.
    public static func overlay(_ color: RGBAColor, fraction: Double = 0.5) -> ImageProcessors.Overlay {
        .init(color: color, fraction: fraction)
    }
}
