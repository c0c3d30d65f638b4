import ArgumentParser
import DarkroomCache
import Foundation

/// `darkroom cache prune [--cache DIR] [--max-size SIZE] [--older-than DURATION]`.
struct CachePruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete unused entries of a cache directory.",
        discussion: """
            --older-than deletes entries not used (written or read) within DURATION. --max-size then \
            deletes least recently used entries, from either area, until the whole cache is at most \
            SIZE. Temporary files of crashed writers (untouched for 10 minutes) are always deleted; \
            with neither option that is all prune does. Safe while workers use the cache.

            SIZE: 500MB, 2GiB, 750k (KB/MB/GB = 1000^n; K/M/G and KiB/MiB/GiB = 1024^n).

            DURATION: 7d, 12h, 30m, 45s, 200ms, 2w, 1h30m.
            """
    )

    @OptionGroup var cache: CacheDirectoryOption

    @Option(name: .customLong("max-size"), help: ArgumentHelp("Largest total size to keep.", valueName: "SIZE"))
    var maxSize: String?

    @Option(name: .customLong("older-than"), help: ArgumentHelp("Delete entries not used within this long.", valueName: "DURATION"))
    var olderThan: String?

    @Flag(help: "Print one JSON object instead of a sentence.")
    var json = false

    func run() throws {
        let directory: String
        let maxBytes: Int?
        let age: Duration?
        do {
            directory = try cache.resolve(mustExist: true)
            maxBytes = try maxSize.map { text throws(UsageFailure) in
                do { return try ByteCountText.parse(text) } catch { throw UsageFailure("--max-size: \(error)") }
            }
            age = try olderThan.map { text throws(UsageFailure) in
                do { return try DurationText.parse(text) } catch { throw UsageFailure("--older-than: \(error)") }
            }
        } catch {
            throw error.exit()
        }
        let report = try cache.maintain(directory) { cache throws(CacheError) in
            try cache.prune(maxBytes: maxBytes, olderThan: age)
        }
        if json {
            StandardOutput.line(try JSONText.line(CachePruneRecord(report)))
            return
        }
        let removed = report.removedEntries
        StandardOutput.line(
            "removed \(removed) entr\(removed == 1 ? "y" : "ies") and \(report.removedTemporaryFiles) temporary file\(report.removedTemporaryFiles == 1 ? "" : "s") (\(ByteCountText.format(report.removedBytes))); \(report.remainingEntries) entries (\(ByteCountText.format(report.remainingBytes))) remain"
        )
    }
}

/// The `--json` form of `darkroom cache prune`.
struct CachePruneRecord: Encodable {
    var version = 1
    var removedEntries: Int
    var removedBytes: Int
    var removedTemporaryFiles: Int
    var remainingEntries: Int
    var remainingBytes: Int
    var areas: [String: [String: Int]]

    init(_ report: SweepReport) {
        removedEntries = report.removedEntries
        removedBytes = report.removedBytes
        removedTemporaryFiles = report.removedTemporaryFiles
        remainingEntries = report.remainingEntries
        remainingBytes = report.remainingBytes
        areas = [:]
        for area in report.areas {
            areas[area.area.rawValue] = [
                "expiredEntries": area.expiredEntries, "expiredBytes": area.expiredBytes,
                "evictedEntries": area.evictedEntries, "evictedBytes": area.evictedBytes,
                "removedTemporaryFiles": area.removedTemporaryFiles,
                "remainingEntries": area.remainingEntries, "remainingBytes": area.remainingBytes,
            ]
        }
    }
}
