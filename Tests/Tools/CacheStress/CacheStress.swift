import ArgumentParser
import DarkroomCache
import Foundation
import Glibc

/// `darkroom-cache-stress`: a test tool, built with the tests and not shipped in `darkroom`. The
/// cache tests run several of these processes at once against one directory, storing and reading keys `stress-0…` whose content is derived from the key (see
/// `StressValue`), and checking every byte they read. Exit status 1 when any read returned a wrong
/// or partial value or an operation failed; one JSON line of counts on standard output.
@main
struct CacheStress: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "darkroom-cache-stress",
        abstract: "Test tool: concurrent stores and verified reads on a cache directory."
    )

    @Option(name: .customLong("cache"), help: ArgumentHelp("The cache directory.", valueName: "DIR"))
    var directory: String

    @Option(help: "Number of distinct keys.")
    var keys: Int = 64

    @Option(help: "How long to run, in seconds.")
    var seconds: Double = 2

    @Option(help: "Seed of the operation sequence.")
    var seed: UInt64 = 1

    @Option(name: .customLong("value-bytes"), help: "Largest value (SIZE), e.g. 64KB.")
    var valueBytes: String = "64KiB"

    @Flag(name: .customLong("fixed-size"), help: "Every value is exactly --value-bytes long.")
    var fixedSize = false

    @Option(help: "Fraction of operations that are reads (0…1).")
    var reads: Double = 0.5

    @Option(help: "Results-area limit (SIZE); writers sweep automatically to keep it.")
    var limit: String = "10GiB"

    @Option(name: .customLong("sweep-spacing"), help: "Least time between automatic sweeps of the fleet (DURATION).")
    var sweepSpacing: String = "1s"

    @Flag(help: "fsync every entry (DiskCache.Configuration.durableWrites).")
    var durable = false

    @Option(help: "Stop after this many operations (default: only --seconds).")
    var operations: Int?

    func run() throws {
        let maxValue: Int
        let limitBytes: Int
        let spacing: Duration
        do {
            maxValue = try ByteCountText.parse(valueBytes)
            limitBytes = try ByteCountText.parse(limit)
            spacing = try DurationText.parse(sweepSpacing)
        } catch {
            throw ValidationError("\(error)")
        }
        guard keys >= 1, (0...1).contains(reads), seconds >= 0, limitBytes > 0 else {
            throw ValidationError("--keys ≥ 1, --reads in 0…1, --seconds ≥ 0 and a positive --limit are required")
        }
        let configuration = DiskCache.Configuration(
            resultsLimitBytes: limitBytes, originalsLimitBytes: limitBytes, recencyRefreshInterval: .seconds(1),
            durableWrites: durable, automaticSweep: .init(writtenFraction: 0.05, minimumSpacing: spacing))
        let diskCache: DiskCache
        do { diskCache = try DiskCache(directory: directory, configuration: configuration) } catch {
            Self.printError("\(error) [\(error.code)]")
            throw ExitCode(1)
        }

        var values: [Int: [UInt8]] = [:]
        var random = SeededGenerator(seed: seed)
        var counts = StressCounts()
        let start = ContinuousClock.now
        let deadline = start + .nanoseconds(Int64(seconds * 1e9))
        while ContinuousClock.now < deadline && counts.operations < (operations ?? .max) {
            let index = Int(random.next() % UInt64(keys))
            let expected = values[index] ?? StressValue.bytes(index: index, maxBytes: maxValue, fixedSize: fixedSize)
            values[index] = expected
            let isRead = Double(random.next() % 1_000_000) / 1_000_000 < reads
            do {
                if isRead {
                    counts.reads += 1
                    if let found = try diskCache.data(for: StressValue.key(index), in: .results) {
                        counts.hits += 1
                        if found != expected {
                            counts.mismatches += 1
                            Self.printError("\(StressValue.key(index)) read \(found.count) bytes that are not the \(expected.count) stored")
                        }
                    }
                } else {
                    try diskCache.store(expected, for: StressValue.key(index), in: .results)
                    counts.writes += 1
                    counts.bytesWritten += expected.count
                }
            } catch {
                counts.errors += 1
                Self.printError("\(error) [\(error.code)]")
            }
            counts.operations += 1
        }
        diskCache.flushStatistics()
        let activity = diskCache.automaticSweepActivity
        counts.automaticSweeps = activity.sweeps
        counts.evictedByAutomaticSweeps = activity.removedEntries
        counts.seconds = (ContinuousClock.now - start) / .seconds(1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(counts), as: UTF8.self))
        if counts.mismatches > 0 || counts.errors > 0 { throw ExitCode(1) }
    }

    /// One line on file descriptor 2 (the C `stderr` global is not concurrency-safe in Swift 6).
    private static func printError(_ text: String) {
        let bytes = Array("darkroom-cache-stress: \(text)\n".utf8)
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// What one stress process did.
struct StressCounts: Encodable {
    var operations = 0
    var reads = 0
    var hits = 0
    var writes = 0
    var bytesWritten = 0
    var mismatches = 0
    var errors = 0
    var automaticSweeps = 0
    var evictedByAutomaticSweeps = 0
    var seconds = 0.0
}
