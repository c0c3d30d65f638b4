import ArgumentParser
import DarkroomClient
import DarkroomQueue
import Foundation

/// `darkroom cancel BATCH | --job ID…`.
struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Drop a batch's (or some jobs') queued jobs.",
        discussion: """
            Queued and delayed jobs are dropped, each with a `cancelled` event (its terminal event); \
            jobs a worker is already running are not interrupted and end normally. Prints how many \
            were dropped. Cancelling again, or a batch that has ended, drops nothing.

            Exit status: 0, 2 bad usage, 3 unknown batch or Redis unreachable.
            """
    )

    @Argument(help: "The batch whose queued jobs to drop.")
    var batch: String?

    @Option(
        name: .customLong("job"), parsing: .upToNextOption,
        help: ArgumentHelp("Drop these jobs instead (repeatable, or several after one --job).", valueName: "id"))
    var jobs: [String] = []

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        switch (batch, jobs.isEmpty) {
        case (nil, true): throw UsageFailure("name a batch, or jobs with --job ID…").validation
        case (.some, false): throw UsageFailure("give a batch or --job IDs, not both").validation
        default: break
        }
        if let bad = jobs.first(where: { JobID(rawValue: $0) == nil }) {
            throw UsageFailure("'\(EventFormatting.sanitized(String(bad.prefix(40))))' is not a job id").validation
        }
    }

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            let result = try await self.cancel(on: queue)
            StandardOutput.line(json ? try result.json() : result.text)
        }
    }

    func cancel(on queue: any FleetClient.Queue) async throws -> CancelResult {
        let client = FleetClient(commandQueue: queue)
        if let batch {
            guard let cancellation = try await client.cancel(batch: batch) else {
                StandardError.line("darkroom: unknown batch '\(EventFormatting.sanitized(batch))'")
                throw QueueExit.unreachable
            }
            return CancelResult(batch: batch, jobs: nil, cancelled: cancellation.cancelled, running: cancellation.running)
        }
        let ids = jobs.compactMap(JobID.init(rawValue:))
        let dropped = try await client.cancel(jobs: ids)
        return CancelResult(batch: nil, jobs: ids.count, cancelled: dropped, running: nil)
    }
}

/// What `cancel` prints.
struct CancelResult: Encodable, Equatable {
    var batch: String?
    /// How many job ids were named (with `--job`).
    var jobs: Int?
    /// Queued jobs dropped.
    var cancelled: Int
    /// Jobs of the batch not dropped and not finished (running, or being handed out).
    var running: Int?

    var text: String {
        if let batch {
            var text = "batch \(EventFormatting.sanitized(batch)): cancelled \(cancelled) queued job\(cancelled == 1 ? "" : "s")"
            if let running, running > 0 { text += "; \(running) already running will finish" }
            return text
        }
        let named = jobs ?? 0
        var text = "cancelled \(cancelled) of \(named) job\(named == 1 ? "" : "s")"
        if cancelled < named { text += " (the others were running, finished, or unknown)" }
        return text
    }

    func json() throws -> String {
        try JSONText.line(self)
    }
}
