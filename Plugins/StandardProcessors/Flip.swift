import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Mirrors the image: `flip(horizontal)` swaps left and right, `flip(vertical)` top and
    /// bottom. An exact pixel move (EXIF orientations 2 and 4), no resampling.
    public struct Flip: ImageProcessing, Hashable {
        /// Which way to mirror.
        public enum Direction: String, Hashable, Sendable, CaseIterable {
            /// Left and right swap (a mirror along the vertical axis).
            case horizontal
            /// Top and bottom swap.
            case vertical
        }

        public var direction: Direction

        public init(_ direction: Direction) {
            self.direction = direction
        }

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.flip) { args in
            // The binder has checked the word against the declared choices.
            Flip(Direction(rawValue: args.word("direction")) ?? .horizontal)
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "flip", version: Self.descriptor.version,
                arguments: [("direction", .word(direction.rawValue))], positionalCount: 1)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            var result = try bitmap.applying(direction == .horizontal ? .upMirrored : .downMirrored)
            result.sizeBeforeShrinkOnLoad = nil
            return result
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.Flip {
    /// Mirrors the image horizontally (left ↔ right) or vertically (top ↔ bottom).
    public static func flip(_ direction: ImageProcessors.Flip.Direction) -> ImageProcessors.Flip { .init(direction) }
}
