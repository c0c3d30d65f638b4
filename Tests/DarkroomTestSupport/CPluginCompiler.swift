import Foundation

/// The C plugins the plugin tests build (with `PluginBuilds`), as an operator would: with `cc`,
/// against the repository's `Plugins/include/darkroom_plugin.h`.
public enum CPluginCompiler {
    /// The test plugin (`Tests/Fixtures/Plugins/test_plugin.c`): `-D` macros make its variants.
    public static let testPlugin = "Tests/Fixtures/Plugins/test_plugin.c"
    /// The C example (`Plugins/Examples/C/invert.c`).
    public static let invertExample = "Plugins/Examples/C/invert.c"
    /// The HEIC coder module (`Plugins/HEIC/heic.c`), linked with libheif.
    public static let heicModule = "Plugins/HEIC/heic.c"

    /// A fresh plugins directory (mode 0755, as the loader requires) under the temporary directory.
    public static func makeDirectory(_ label: String) throws -> String {
        let path = try TestImages.makeDirectory("plugins-\(label)")
        chmod(path, 0o755)
        return path
    }

    /// Compiles `source` (relative to the repository's root) with `defines` (`-DNAME=VALUE`) into
    /// `directory/fileName`, mode 0755, and returns its path. `packages` are pkg-config names whose
    /// compile and link flags are added (`libheif` for the HEIC module).
    @discardableResult
    public static func compile(
        _ source: String, defines: [String: String] = [:], packages: [String] = [], into directory: String, name fileName: String
    ) throws -> String {
        let output = directory + "/" + fileName
        let flags = try packages.isEmpty ? "" : PluginBuilds.run("pkg-config", ["--cflags", "--libs"] + packages)
        try PluginBuilds.run(
            "cc",
            ["-std=c11", "-O2", "-Wall", "-shared", "-fPIC", "-I", PluginBuilds.repositoryRoot + "/Plugins/include"]
                + defines.sorted { $0.key < $1.key }.map { "-D\($0.key)=\($0.value)" }
                + [PluginBuilds.repositoryRoot + "/" + source, "-o", output]
                + flags.split(whereSeparator: \.isWhitespace).map(String.init))
        chmod(output, 0o755)
        return output
    }
}
