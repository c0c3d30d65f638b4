import Foundation

/// Builds plugins for tests that load them as Darkroom does: C sources with `cc`, Rust crates
/// with `cargo`. Each build goes into a directory the test names, never into the source tree.
public enum PluginBuilds {
    /// The repository's root: this file is `Tests/DarkroomTestSupport/PluginBuilds.swift`.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// Compiles C `sources` (relative to the repository root, or absolute) into
    /// `directory/lib<name>.so` with `cc -std=c11 -O2 -shared -fPIC -I Plugins/include`, mode 0755
    /// (the loader refuses a plugin writable by group or others, whatever the umask).
    public static func compileC(_ sources: [String], name: String, into directory: String) throws -> String {
        let output = directory + "/lib\(name).so"
        let paths = sources.map { $0.hasPrefix("/") ? $0 : repositoryRoot + "/" + $0 }
        try run("cc", ["-std=c11", "-O2", "-shared", "-fPIC", "-I", repositoryRoot + "/Plugins/include"] + paths + ["-o", output])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: output)
        return output
    }

    /// `cargo` on PATH or in `~/.cargo/bin` (where rustup puts it), or nil: tests that build Rust
    /// are skipped without it.
    public static let cargo: String? = {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return executable(named: "cargo", extraDirectories: [home + "/.cargo/bin"])
    }()

    /// Builds the crate at `manifest` (relative to the repository root) with `cargo build
    /// --release --offline` into `targetDirectory`, and returns `release/lib<library>.so` there, mode 0755.
    public static func buildRust(manifest: String, library: String, targetDirectory: String) throws -> String {
        guard let cargo else { throw ToolFailure(description: "cargo is neither on PATH nor in ~/.cargo/bin") }
        // cargo finds rustc beside itself when ~/.cargo/bin is not on PATH.
        var environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: cargo).deletingLastPathComponent().path
        environment["PATH"] = directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        try run(
            cargo,
            ["build", "--release", "--offline", "--quiet", "--manifest-path", repositoryRoot + "/" + manifest, "--target-dir", targetDirectory],
            environment: environment)
        let output = targetDirectory + "/release/lib\(library).so"
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: output)
        return output
    }

    /// The first executable `name` on PATH or in `extraDirectories`.
    public static func executable(named name: String, extraDirectories: [String] = []) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + extraDirectories
        return directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` (a path, or a name looked up on PATH) and returns its output (standard output
    /// and error together); throws with that output when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
        guard let path = tool.hasPrefix("/") ? tool : executable(named: tool) else { throw ToolFailure(description: "\(tool) is not on PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: text, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self)
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public let description: String
    }
}
