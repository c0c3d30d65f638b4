import DarkroomCodecs
import DarkroomCore
import DarkroomSources

/// The modules a program runs with — built-in and loaded — and the plugins it refused.
///
/// The registries the pipeline, the worker and the chain parser use are made from the catalog, so
/// a processor, provider or coder from a shared library is found exactly as a built-in one is.
/// Names are unique across modules: a module whose module name, processor name, scheme or format
/// is already taken is refused as a whole, so a plugin can never shadow a built-in.
public struct PluginCatalog: Sendable {
    /// The modules in the order they were added: the built-in ones first.
    public private(set) var modules: [PluginModule] = []
    /// The plugins that were not loaded, in the order they were met.
    public private(set) var refusals: [PluginRefusal] = []

    /// An empty catalog.
    public init() {}

    /// A catalog of built-in modules. They are distinct by construction; a clash between them is
    /// a build bug.
    public init(builtIn: [PluginModule]) {
        for module in builtIn {
            if let clash = clash(of: module) { preconditionFailure("built-in module \(module.name): \(clash)") }
            modules.append(module)
        }
    }

    /// Adds `module`, or records a refusal naming `path` when one of its names is taken.
    /// Returns whether it was added.
    @discardableResult
    public mutating func add(_ module: PluginModule, path: String) -> Bool {
        if let clash = clash(of: module) {
            refuse(path: path, reason: clash)
            return false
        }
        modules.append(module)
        return true
    }

    /// Records a plugin that was not loaded.
    public mutating func refuse(path: String, reason: String) {
        refusals.append(PluginRefusal(path: path, reason: reason))
    }

    /// What in `module` is already taken, or nil.
    func clash(of module: PluginModule) -> String? {
        if let owner = modules.first(where: { $0.name == module.name }) {
            return "module name '\(module.name)' is already taken by \(Self.describe(owner))"
        }
        for processor in module.processors {
            if let owner = modules.first(where: { $0.processors.contains { $0.name == processor.name } }) {
                return "processor '\(processor.name)' clashes with the one in \(Self.describe(owner))"
            }
        }
        for scheme in module.providers.flatMap(\.schemes) {
            if let owner = modules.first(where: { $0.providers.contains { $0.schemes.contains(scheme) } }) {
                return "scheme '\(scheme)' is already provided by \(Self.describe(owner))"
            }
        }
        let formats = module.decoders.map(\.format.rawValue) + module.encoders.map(\.format.rawValue)
        for format in Set(formats).sorted() {
            let taken = modules.first {
                $0.decoders.contains { $0.format.rawValue == format } || $0.encoders.contains { $0.format.rawValue == format }
            }
            if let owner = taken { return "format '\(format)' is already handled by \(Self.describe(owner))" }
        }
        return nil
    }

    /// `the built-in module standard` or `module acme 1.2.0 (/p/libacme.so)`.
    static func describe(_ module: PluginModule) -> String {
        switch module.origin {
        case .builtIn: return "the built-in module '\(module.name)'"
        case .file(let path): return "module '\(module.name)' \(module.version) (\(path))"
        }
    }

    /// Every module's processors, by name.
    public var processors: ProcessorRegistry {
        var registry = ProcessorRegistry()
        for descriptor in modules.flatMap(\.processors) {
            // Names were checked for clashes and validity when the module was added.
            do { try registry.register(descriptor) } catch { preconditionFailure("\(error)") }
        }
        return registry
    }

    /// Every module's decoders and encoders; built-in ones are asked first when sniffing.
    public var coders: CoderRegistry {
        CoderRegistry(decoders: modules.flatMap(\.decoders), encoders: modules.flatMap(\.encoders))
    }

    /// Every module's providers, to be made on the pipeline's pools.
    public var providers: [ProviderFactory] { modules.flatMap(\.providers) }

    /// Module name → version, as workers advertise them.
    public var moduleVersions: [String: String] {
        Dictionary(modules.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
    }

    /// The module that offers the processor `name`, if any.
    public func module(offeringProcessor name: String) -> PluginModule? {
        modules.first { $0.processors.contains { $0.name == name } }
    }
}
