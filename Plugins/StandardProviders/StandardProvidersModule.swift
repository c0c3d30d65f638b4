import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import DarkroomSources
import DarkroomSystem

extension StandardProviders {
    /// The built-in module `standard-providers`: `http`/`https` (libcurl, with the SSRF guard),
    /// `file` (confined to the allowed roots) and `data:` URIs, added to a catalog exactly as a
    /// plugin's providers are.
    public static let module = PluginModule(
        identity: PluginModuleIdentity(name: "standard-providers", version: DarkroomBuild.version), providers: factories)
}
