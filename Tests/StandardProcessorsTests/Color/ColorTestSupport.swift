import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors

/// The colour and shape processors for their tests; pixels are built and compared with
/// `TestPixels` (DarkroomTestSupport).
enum ColorTestSupport {
    /// The seven colour/shape descriptors, registered the way the plugin registers them.
    static var registry: ProcessorRegistry {
        var registry = ProcessorRegistry()
        for descriptor in [
            ImageProcessors.RoundCorner.descriptor, ImageProcessors.Tint.descriptor,
            ImageProcessors.Overlay.descriptor, ImageProcessors.ColorControls.descriptor,
            ImageProcessors.BlackWhite.descriptor, ImageProcessors.Border.descriptor,
            ImageProcessors.Blend.descriptor,
        ] {
            try! registry.register(descriptor)
        }
        return registry
    }

    /// A one-processor chain built from text through the registry.
    static func processor(_ text: String) throws -> any ImageProcessing {
        let chain = try registry.chain(from: text)
        return chain.processors[0]
    }
}
