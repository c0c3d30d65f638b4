import ArgumentParser
import DarkroomCache
import DarkroomSystem
import Foundation

/// `darkroom cache stats [--cache DIR] [--json]`.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Entries, bytes, oldest entry and hit ratio of a cache directory, per area.",
        discussion: """
            "oldest" is the time since the least recently used entry was last used (written or \
            read). Hits and misses are summed over every process that used the directory in about \
            the last week; they are approximate, and "unknown" until some process has flushed its \
            counts.
            """
    )

    @OptionGroup var cache: CacheDirectoryOption

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        let directory: String
        do { directory = try cache.resolve(mustExist: true) } catch { throw error.exit() }
        let stats = try cache.maintain(directory) { cache throws(CacheError) in try cache.stats() }
        if json {
            StandardOutput.line(try JSONText.line(CacheStatsRecord(directory: directory, stats: stats)))
            return
        }
        StandardOutput.line("cache \(directory)")
        StandardOutput.line(Self.row("area", "entries", "bytes", "oldest", "newest", "hit ratio"))
        for area in stats.areas {
            StandardOutput.line(
                Self.row(
                    area.area.rawValue, "\(area.entries)", ByteCountText.format(area.bytes),
                    Self.age(area.oldestEntryAge), Self.age(area.newestEntryAge),
                    Self.ratio(area.hitRatio, hits: area.hits, misses: area.misses)))
        }
        StandardOutput.line(
            Self.row(
                "total", "\(stats.entries)", ByteCountText.format(stats.bytes),
                Self.age(stats.oldestEntryAge), "",
                Self.ratio(stats.hitRatio, hits: stats.hits, misses: stats.misses)))
        let temporary = stats.areas.reduce(0) { $0 + $1.temporaryFiles }
        if temporary > 0 {
            StandardOutput.line("\(temporary) temporary file\(temporary == 1 ? "" : "s") (writes in progress, or left by crashed writers until a sweep)")
        }
    }

    private static func row(_ columns: String...) -> String {
        let widths = [10, 9, 12, 10, 10, 0]
        return zip(columns, widths).map { text, width in
            width == 0 ? text : text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0)
        }.joined()
    }

    private static func age(_ age: Duration?) -> String { age.map { DurationText.format($0) } ?? "-" }

    private static func ratio(_ ratio: Double?, hits: Int, misses: Int) -> String {
        guard let ratio else { return "unknown" }
        return String(format: "%.1f%% (%d hits, %d misses)", ratio * 100, hits, misses)
    }
}

/// The `--json` form of `darkroom cache stats`. Ages are in seconds; `hitRatio` is absent when
/// no lookup was counted.
struct CacheStatsRecord: Encodable {
    struct Area: Encodable {
        var entries: Int
        var bytes: Int
        var temporaryFiles: Int
        var temporaryBytes: Int
        var oldestEntryAgeSeconds: Double?
        var newestEntryAgeSeconds: Double?
        var hits: Int
        var misses: Int
        var hitRatio: Double?
    }
    var version = 1
    var directory: String
    var entries: Int
    var bytes: Int
    var oldestEntryAgeSeconds: Double?
    var hits: Int
    var misses: Int
    var hitRatio: Double?
    var areas: [String: Area]

    init(directory: String, stats: CacheStats) {
        self.directory = directory
        entries = stats.entries
        bytes = stats.bytes
        oldestEntryAgeSeconds = stats.oldestEntryAge.map(\.inSeconds)
        hits = stats.hits
        misses = stats.misses
        hitRatio = stats.hitRatio
        areas = [:]
        for area in stats.areas {
            areas[area.area.rawValue] = Area(
                entries: area.entries, bytes: area.bytes, temporaryFiles: area.temporaryFiles, temporaryBytes: area.temporaryBytes,
                oldestEntryAgeSeconds: area.oldestEntryAge.map(\.inSeconds), newestEntryAgeSeconds: area.newestEntryAge.map(\.inSeconds),
                hits: area.hits, misses: area.misses, hitRatio: area.hitRatio)
        }
    }
}
