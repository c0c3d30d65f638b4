import Foundation

/// Builds C plugins for tests with the system's `cc`, against the repository's
/// `Plugins/include/darkroom_plugin.h`, as an operator would.
public enum CPluginCompiler {
    /// The repository's root, found from this file's path.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The test plugin (`Tests/Fixtures/Plugins/test_plugin.c`).
    public static let testPlugin = "Tests/Fixtures/Plugins/test_plugin.c"
    /// The C example (`Plugins/Examples/C/invert.c`).
    public static let invertExample = "Plugins/Examples/C/invert.c"

    /// A fresh plugins directory (mode 0755, as the loader requires) under the temporary directory.
    public static func makeDirectory(_ label: String) throws -> String {
        let path = try TestImages.makeDirectory("plugins-\(label)")
        chmod(path, 0o755)
        return path
    }

    /// Compiles `source` (relative to the repository's root) with `defines` into
    /// `directory/name` (mode 0755) and returns its path.
    @discardableResult
    public static func compile(_ source: String, defines: [String: String] = [:], into directory: String, name: String) throws -> String {
        let output = directory + "/" + name
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["cc", "-std=c11", "-O2", "-Wall", "-shared", "-fPIC", "-I", repositoryRoot + "/Plugins/include"]
            + defines.sorted { $0.key < $1.key }.map { "-D\($0.key)=\($0.value)" }
            + [repositoryRoot + "/" + source, "-o", output]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "cc failed for \(source): \(message)") }
        chmod(output, 0o755)
        return output
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }
}
