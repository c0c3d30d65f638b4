import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSources

/// A named, versioned unit that adds processors, providers and coders to Darkroom.
///
/// The standard processors, providers and coders are modules like any other (under `Plugins/`),
/// and an external shared library loaded through the C ABI (`Plugins/include/darkroom_plugin.h`)
/// becomes one too: everything reaches the registries through a `PluginCatalog`, one lookup path.
public struct PluginModule: Sendable {
    /// Where a module comes from.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// Compiled into the `darkroom` binary.
        case builtIn
        /// Loaded from this shared library.
        case file(String)

        public var description: String {
            switch self {
            case .builtIn: return "built in"
            case .file(let path): return path
            }
        }
    }

    /// The module's name and version; external modules' processors carry it in their identifiers.
    public var identity: PluginModuleIdentity
    public var origin: Origin
    /// The processors it adds, by name.
    public var processors: [ProcessorDescriptor]
    /// The providers it adds, by scheme.
    public var providers: [ProviderFactory]
    /// The formats it reads (sniffed from the bytes) and writes.
    public var decoders: [any ImageDecoding]
    public var encoders: [any ImageEncoding]

    public init(
        identity: PluginModuleIdentity, origin: Origin = .builtIn, processors: [ProcessorDescriptor] = [],
        providers: [ProviderFactory] = [], decoders: [any ImageDecoding] = [], encoders: [any ImageEncoding] = []
    ) {
        self.identity = identity
        self.origin = origin
        self.processors = processors
        self.providers = providers
        self.decoders = decoders
        self.encoders = encoders
    }

    /// The formats whose pixels it decodes (a coder that only encodes reads headers alone).
    public var readableFormats: [ImageFormat] {
        decoders.filter(\.decodesPixels).map(\.format)
    }

    public var name: String { identity.name }
    public var version: String { identity.version }
}
