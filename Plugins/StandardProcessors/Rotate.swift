import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Turns the image clockwise by any angle in degrees: `rotate(30, background: #FFFFFF)`.
    ///
    /// Positive angles turn clockwise as seen on screen (as `vips rotate`); negative ones
    /// counter-clockwise. Multiples of 90 (after reduction modulo 360, so `-90`, `270` and `630`
    /// are the same turn) move pixels exactly, with no resampling, and keep the image's size
    /// (swapped for 90 and 270). Any other angle grows the canvas to the rotated bounding box,
    /// `rint(w·|cos| + h·|sin|) × rint(w·|sin| + h·|cos|)` as libvips computes it, interpolates
    /// bicubically (Catmull-Rom) on premultiplied alpha with anti-aliased edges, and fills the
    /// uncovered corners with `background` (default fully transparent, `#00000000`; a JPEG source
    /// is then saved as PNG).
    public struct Rotate: ImageProcessing, Hashable {
        public var degrees: Double
        public var background: RGBAColor

        public init(degrees: Double, background: RGBAColor = .clear) {
            self.degrees = degrees
            self.background = background
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.rotate) { args in
            Rotate(degrees: args.number("degrees"), background: args.color("background"))
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "rotate", version: Self.descriptor.version,
                arguments: [("degrees", .number(degrees)), ("background", .color(background))],
                positionalCount: 1)
        }

        /// True for a non-right angle on a background that is not opaque.
        public var introducesTransparency: Bool {
            !isRightAngle && !background.isOpaque
        }

        /// True when the turn is a whole number of quarter turns (an exact pixel move).
        public var isRightAngle: Bool {
            degrees.truncatingRemainder(dividingBy: 90) == 0
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.rotated(byDegrees: degrees, background: background)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Rotate {
    /// Turns the image `degrees` clockwise; uncovered corners get `background`.
    public static func rotate(degrees: Double, background: RGBAColor = .clear) -> ImageProcessors.Rotate {
        .init(degrees: degrees, background: background)
    }
}
