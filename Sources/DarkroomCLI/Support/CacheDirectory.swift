import DarkroomCache
import Foundation

/// Finds the cache directory: `--cache DIR`, else `DARKROOM_CACHE_DIR`, else none.
enum CacheDirectory {
    static var fromEnvironment: String? {
        ProcessInfo.processInfo.environment["DARKROOM_CACHE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The disk cache to use, or nil when none is configured or `disabled` (`--no-cache`).
    static func open(flag: String?, disabled: Bool) throws(UsageFailure) -> DiskCache? {
        guard !disabled, let directory = flag ?? fromEnvironment else { return nil }
        do {
            return try DiskCache(directory: directory)
        } catch {
            throw UsageFailure("cannot use cache directory \(directory): \(error)")
        }
    }
}
