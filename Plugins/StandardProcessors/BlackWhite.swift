import DarkroomChains
import DarkroomCore

extension ImageProcessors {
    /// Turns the image grey (Kingfisher's `BlackWhiteProcessor`, without its exposure boost).
    ///
    /// Chain text: `blackWhite` (no arguments). Every pixel becomes its Rec. 709 luma computed on
    /// the sRGB-encoded values, `Y = 0.2126 R + 0.7152 G + 0.0722 B`, on all three channels; alpha
    /// is unchanged (luma is linear, so it is computed on the premultiplied bytes directly).
    /// Kingfisher's version also raises exposure by 0.7 EV; Darkroom does not, because a plain
    /// greyscale is what users of vips (`colourspace b-w`) and imgproxy expect. For the brighter
    /// look, chain `blackWhite|>colorControls(exposure: 0.7)`.
    public struct BlackWhite: ImageProcessing, Hashable {
        public init() {}

        public static let descriptor = ProcessorDescriptor(StandardProcessorSpecs.blackWhite) { _ in
            BlackWhite()
        }

        public var invocation: ProcessorInvocation {
            ProcessorInvocation(name: "blackWhite", version: Self.descriptor.version)
        }

        public func process(_ bitmap: Bitmap) throws -> Bitmap {
            try bitmap.applyingColorTransform(matrix: .rec709Grayscale, curves: nil)
        }
    }
}

extension ImageProcessing where Self == ImageProcessors.BlackWhite {
    /// Greyscale by Rec. 709 luma.
    public static var blackWhite: ImageProcessors.BlackWhite { .init() }
}
