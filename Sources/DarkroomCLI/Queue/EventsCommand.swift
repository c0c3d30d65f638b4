import ArgumentParser
import DarkroomClient
import DarkroomQueue
import Foundation

/// `darkroom events [--follow] [--batch B] [--type T…] [--since ID|TIME] [--json] [--limit N] [--drop-when-behind N]`.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Read the event stream.",
        discussion: """
            Reads the events straight from Redis, oldest first: from the oldest retained event (the \
            stream keeps about the last 100,000), or from --since, or — with --follow alone — only new \
            ones. With --follow it keeps reading until SIGINT or SIGTERM, then prints (on standard \
            error) the --since id to resume from, and exits 0.

            One line per event: TIME TYPE batch= job= worker= attempt= and what the type carries \
            (count; WxH format size cache= ms → output; code: message (will retry)). --json prints \
            each event's stored JSON record instead, one per line.

            --since takes an event id (events after it), an ISO-8601 time (UTC unless an offset is \
            given; a bare date is its midnight), or an age such as 90s, 10m, 2h, 1d.

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Flag(help: "Keep reading new events until interrupted.")
    var follow = false

    @Option(help: "Only events of this batch.")
    var batch: String?

    @Option(help: "Only events of this job.")
    var job: String?

    @Option(
        name: .customLong("type"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Only these types (repeatable, or comma-separated): batchEnqueued, started, succeeded, failed, dead, cancelled, workerOnline, workerOffline.",
            valueName: "type"))
    var types: [String] = []

    @Option(help: ArgumentHelp("Start after this event id, at this time, or this long ago (10m, 2h).", valueName: "id|time|age"))
    var since: String?

    @Flag(help: "Print each event's JSON record, one per line.")
    var json = false

    @Option(help: "Stop after this many matching events.")
    var limit: Int?

    @Option(
        help: ArgumentHelp(
            "With --follow: buffer up to N events and discard the oldest (reporting how many) when the output falls behind.",
            valueName: "N"))
    var dropWhenBehind: Int?

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        let filter: EventFilter
        let start: EventStart
        do {
            filter = try EventFilter(batch: batch, job: job, types: types)
            start = try EventStart.parse(since: since, follow: follow)
            if let limit, limit < 1 { throw UsageFailure("--limit must be at least 1") }
            if let dropWhenBehind {
                guard follow else { throw UsageFailure("--drop-when-behind needs --follow") }
                guard (1...10_000_000).contains(dropWhenBehind) else { throw UsageFailure("--drop-when-behind must be 1…10000000") }
            }
        } catch let failure as UsageFailure {
            throw failure.exit()
        }
        if follow { Interruption.install() }
        try await QueueCommandRunner.run(redis) { queue in
            let json = self.json
            var reader = EventReader(filter: filter, follow: follow, limit: limit)
            reader.dropLimit = dropWhenBehind
            let (from, fallback) = try await start.source(on: queue)
            let last = try await reader.read(from: from, on: queue, shouldStop: { Interruption.isRequested }) { event in
                StandardOutput.line(json ? try EventFormatting.json(event) : EventFormatting.line(event))
            }
            if follow { StandardError.line("darkroom: stopped; resume with --since \((last ?? fallback).rawValue)") }
        }
    }
}

/// Which events to show.
struct EventFilter: Sendable, Equatable {
    var batch: String?
    var job: String?
    /// Empty: every type.
    var types: Set<JobEventType> = []

    init(batch: String? = nil, job: String? = nil, types: Set<JobEventType> = []) {
        self.batch = batch
        self.job = job
        self.types = types
    }

    /// From the flags: type names are matched case-insensitively and may be comma-separated.
    init(batch: String?, job: String?, types names: [String]) throws(UsageFailure) {
        var types: Set<JobEventType> = []
        for name in names.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let type = JobEventType.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw UsageFailure(
                    "unknown event type '\(EventFormatting.sanitized(String(name.prefix(30))))'; the types are \(JobEventType.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            types.insert(type)
        }
        self.init(batch: batch, job: job, types: types)
    }

    func matches(_ event: JobEvent) -> Bool {
        if let batch, event.batch != batch { return false }
        if let job, event.job?.rawValue != job { return false }
        return types.isEmpty || types.contains(event.type)
    }
}
