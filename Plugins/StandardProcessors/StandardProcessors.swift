import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import DarkroomSystem

/// The standard plugin: Darkroom's 18 built-in processors, registered through the same
/// `ProcessorRegistry` external plugins use.
public enum StandardProcessors {
    /// Every standard processor's descriptor, in the order the README documents them.
    public static let descriptors: [ProcessorDescriptor] = [
        ImageProcessors.Downsample.descriptor,
        ImageProcessors.Resize.descriptor,
        ImageProcessors.Crop.descriptor,
        ImageProcessors.RoundCorner.descriptor,
        ImageProcessors.Blur.descriptor,
        ImageProcessors.Tint.descriptor,
        ImageProcessors.Overlay.descriptor,
        ImageProcessors.ColorControls.descriptor,
        ImageProcessors.BlackWhite.descriptor,
        ImageProcessors.Border.descriptor,
        ImageProcessors.Blend.descriptor,
        ImageProcessors.Rotate.descriptor,
        ImageProcessors.Flip.descriptor,
        ImageProcessors.Trim.descriptor,
        ImageProcessors.Extend.descriptor,
        ImageProcessors.Pixelate.descriptor,
        ImageProcessors.SmartCrop.descriptor,
        ImageProcessors.Sharpen.descriptor,
        ImageProcessors.Watermark.descriptor,
    ]

    /// The plugin's name and version, as `darkroom plugins` and worker heartbeats report them.
    public static let pluginName = "standard"
    public static let pluginVersion = DarkroomBuild.version

    /// The built-in module `standard`: the 18 processors, added to a catalog exactly as a
    /// plugin's processors are.
    public static let module = PluginModule(
        identity: PluginModuleIdentity(name: pluginName, version: pluginVersion), processors: descriptors)

    /// Adds every standard processor to `registry`.
    public static func register(into registry: inout ProcessorRegistry) {
        for descriptor in descriptors {
            // The names are distinct and valid by construction; a failure here is a build bug
            // that every test would catch at once.
            try! registry.register(descriptor)
        }
    }

    /// A registry holding only the standard processors.
    public static var registry: ProcessorRegistry {
        var registry = ProcessorRegistry()
        register(into: &registry)
        return registry
    }
}
