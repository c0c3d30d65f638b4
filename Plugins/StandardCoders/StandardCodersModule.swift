import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import DarkroomSystem

/// The built-in module `standard-coders`: JPEG (libjpeg-turbo), PNG (libspng), WebP (libwebp), GIF
/// (giflib, read only) and AVIF (libavif), added to a catalog exactly as a plugin's coders are.
public enum StandardCoders {
    public static let module = PluginModule(
        identity: PluginModuleIdentity(name: "standard-coders", version: DarkroomBuild.version),
        decoders: CoderRegistry.standard.decoders, encoders: CoderRegistry.standard.encoders)
}
