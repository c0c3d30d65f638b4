/// Where plugins are looked for: the `--plugins DIR` flags, then `DARKROOM_PLUGIN_PATH`
/// (colon-separated, as `PATH`), each directory once.
public struct PluginSearchPath: Sendable, Equatable {
    public var directories: [String]

    public init(directories: [String]) {
        var seen = Set<String>()
        self.directories = directories.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `flags` then the environment variable's entries (empty entries are skipped).
    public init(flags: [String], environment: [String: String]) {
        let fromEnvironment = environment[Self.environmentVariable].map { $0.split(separator: ":").map(String.init) } ?? []
        self.init(directories: flags + fromEnvironment)
    }

    /// `DARKROOM_PLUGIN_PATH`.
    public static let environmentVariable = "DARKROOM_PLUGIN_PATH"
}
