import ArgumentParser
import DarkroomCache
import Foundation

/// `darkroom cache stats|prune`: look at and trim a shared cache directory.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show statistics of a cache directory, or prune it.",
        discussion: """
            The directory comes from --cache or the DARKROOM_CACHE_DIR environment variable.

            Layout: DIR/VERSION, DIR/originals/ab/cd/<sha256 of key>, DIR/results/ab/cd/<sha256 of \
            key>; entries are the stored bytes exactly. Writers keep the limits on their own \
            (automatic sweeps); prune is for operators.
            """,
        subcommands: [CacheStatsCommand.self, CachePruneCommand.self]
    )
}

/// `--cache DIR`, falling back to `DARKROOM_CACHE_DIR`.
struct CacheDirectoryOption: ParsableArguments {
    @Option(name: .customLong("cache"), help: ArgumentHelp("The cache directory (default: $DARKROOM_CACHE_DIR).", valueName: "DIR"))
    var directory: String?

    /// The directory to use, or a usage failure naming both ways to give one. With `mustExist`,
    /// it must already be a cache (have a VERSION file), so a mistyped path is reported rather
    /// than turned into an empty cache.
    func resolve(mustExist: Bool) throws(UsageFailure) -> String {
        guard let directory = directory ?? CacheDirectory.fromEnvironment, !directory.isEmpty else {
            throw UsageFailure("no cache directory: pass --cache DIR or set DARKROOM_CACHE_DIR")
        }
        var isDirectory: ObjCBool = false
        if mustExist && !(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw UsageFailure("\(directory): no such cache directory")
        }
        if mustExist && !DiskCache.isCache(directory) {
            throw UsageFailure("\(directory): not a darkroom cache (no VERSION file; workers create one on first use)")
        }
        return directory
    }
}

extension CacheDirectoryOption {
    /// Runs a maintenance `operation` (stats, prune) on the cache in `directory`, which must not
    /// start a sweep of its own. A cache error is reported as `darkroom: MESSAGE [CODE]` and
    /// ends the command with exit status 1.
    func maintain<T>(_ directory: String, _ operation: (DiskCache) throws(CacheError) -> T) throws -> T {
        do {
            return try operation(try DiskCache(directory: directory, configuration: .init(automaticSweep: nil)))
        } catch {
            StandardError.line("darkroom: \(error) [\(error.code)]")
            throw ExitCode(1)
        }
    }
}
