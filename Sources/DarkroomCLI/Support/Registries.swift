import DarkroomCore
import DarkroomPlugins
import DarkroomSources
import DarkroomStandardCoders
import DarkroomStandardProcessors
import DarkroomStandardProviders

/// The modules this binary runs with: the built-in ones, and the plugins loaded from a search path.
enum Registries {
    /// The built-in modules: the standard processors, providers and coders.
    static var builtIn: PluginCatalog {
        PluginCatalog(builtIn: [StandardProcessors.module, StandardProviders.module, StandardCoders.module])
    }

    /// The built-in modules and the plugins of `searchPath`; refusals are recorded in the catalog.
    static func catalog(_ searchPath: PluginSearchPath) -> PluginCatalog {
        var catalog = builtIn
        PluginLoader.load(searchPath, into: &catalog)
        return catalog
    }
}
