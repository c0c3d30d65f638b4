import ArgumentParser
import DarkroomClient
import DarkroomPlugins
import Foundation

/// `--plugins DIR` (repeatable) and `DARKROOM_PLUGIN_PATH`: the plugin modules a command loads
/// besides the built-in ones. Shared by `process`, `run`, `worker`, `enqueue` and `plugins`.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugins"),
        help: ArgumentHelp(
            "A directory of plugin modules (*.so) to load; repeatable. Added to $DARKROOM_PLUGIN_PATH (colon-separated).",
            valueName: "dir"))
    var directories: [String] = []

    /// Where plugins are looked for: the flags, then the environment, as absolute paths (so a
    /// module's origin in listings and refusals says exactly which file it is).
    var searchPath: PluginSearchPath {
        let relative = PluginSearchPath(flags: directories, environment: ProcessInfo.processInfo.environment)
        let workingDirectory = FileManager.default.currentDirectoryPath
        return PluginSearchPath(directories: relative.directories.map { PathResolver.absolute($0, from: workingDirectory) })
    }

    /// The built-in modules plus the plugins, each refusal reported as a warning on standard
    /// error (the rest still load). `darkroom plugins` lists refusals itself instead.
    func loadCatalog() -> PluginCatalog {
        let catalog = Registries.catalog(searchPath)
        for refusal in catalog.refusals { StandardError.line("darkroom: warning: \(refusal)") }
        return catalog
    }
}
