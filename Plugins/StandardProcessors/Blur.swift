import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Gaussian blur whose standard deviation is `radius` pixels: `blur(4)`.
    ///
    /// The radius is the sigma of CSS `blur()` and of `vips gaussblur`, and the result agrees with
    /// `vips gaussblur in out radius`: the same kernel extent (the Gaussian is cut where it falls
    /// below 0.2 of its peak, about ±1.8σ, so a radius under about 0.56 changes nothing) and the
    /// same edge handling (copies of the edge pixels). Computed on premultiplied alpha, so
    /// transparent areas do not darken their surroundings. `radius` must be > 0.
    public struct Blur: ImageProcessing, Hashable {
        public var radius: Double

        public init(radius: Double) {
            self.radius = radius
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.blur) { args in
            Blur(radius: args.number("radius"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "blur", version: Self.descriptor.version,
                arguments: [("radius", .number(radius))], positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.gaussianBlurred(sigma: radius)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Blur {
    /// Gaussian blur with a standard deviation of `radius` pixels.
    public static func blur(radius: Double) -> ImageProcessors.Blur { .init(radius: radius) }
}
