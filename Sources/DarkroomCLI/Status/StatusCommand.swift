import ArgumentParser
import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import Foundation

/// `darkroom status [--batch B | --job J] [--json]`.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the queues, live workers, batches and throughput.",
        discussion: """
            Reads what Redis holds: per priority the ready jobs and how long the oldest has waited \
            (lag), jobs in flight, delayed and dead-lettered, and the live workers from their \
            heartbeats. With a coordinator registered (darkroom coordinator) it adds what only its \
            projections hold: the recently active batches, each batch's running and queued jobs and \
            duration percentiles, each worker's errors and current jobs, and the jobs ended in the \
            last minute. Without one it says which fields are missing; --batch still shows a batch's \
            counters.

            --job J shows one job: from its projection in O(1) with a coordinator, else from a scan \
            of the event stream (as `darkroom get`); once it has ended, also its source (credentials \
            redacted) and chain.

            Exit status: 0 shown; 1 --job names a job with no events; 2 bad usage; 3 Redis unreachable.
            """
    )

    @Option(help: ArgumentHelp("Show this batch (repeatable).", valueName: "name"))
    var batch: [String] = []

    @Option(help: ArgumentHelp("Show this job instead.", valueName: "id"))
    var job: String?

    @Flag(help: "Print one JSON object (the same as the coordinator's /status).")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        if let job, JobID(rawValue: job) == nil {
            throw UsageFailure("'\(EventFormatting.sanitized(String(job.prefix(40))))' is not a job id").validation
        }
        if job != nil, !batch.isEmpty { throw UsageFailure("--job and --batch cannot be combined").validation }
    }

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            if let job, let id = JobID(rawValue: job) {
                try await showJob(id, queue: queue)
                return
            }
            let status = try await FleetStatusReader(queue: queue, store: RedisCoordinatorStore(queue: queue)).read(batches: batch.isEmpty ? nil : batch)
            if json {
                StandardOutput.line(try JSONText.line(status))
            } else {
                StandardOutput.line(StatusText.render(status))
            }
        }
    }

    private func showJob(_ id: JobID, queue: RedisStreamsQueue) async throws {
        let store = RedisCoordinatorStore(queue: queue)
        let registration = try await store.coordinatorRegistration()
        let registered = registration != nil
        let status = try await FleetClient(commandQueue: queue).lookup(id)
        let projection = registered ? try await store.jobProjection(id) : nil
        let event: JobEvent
        switch status {
        case .notFound:
            StandardError.line("darkroom: job \(EventFormatting.sanitized(id.rawValue)) has no events: " + JobSearch(registration).notFoundReasons)
            throw QueueExit.failed
        case .running(let latest), .retrying(let latest), .ended(let latest): event = latest
        }
        if json {
            StandardOutput.line(
                try JSONText.line(
                    JobStatusRecord(
                        job: id.rawValue, event: event, starts: projection?.starts, durationMs: projection?.durationMilliseconds,
                        source: registered ? "projection" : "stream",
                        eventTrimmed: projection?.latest == event && projection?.trimmed != nil ? true : nil,
                        outputs: projection?.latest == event ? projection?.trimmed?.outputs : nil)))
            return
        }
        var line = EventFormatting.line(event)
        if let trimmed = projection?.trimmed, projection?.latest == event {
            line += trimmed.outputs.map { " · \($0) output\($0 == 1 ? "" : "s")" } ?? ""
            line += " · from its finished record: the event was trimmed from the stream (the event log has it)"
        }
        if let projection {
            line += " · started \(projection.starts) time\(projection.starts == 1 ? "" : "s")"
            if let duration = projection.durationMilliseconds { line += " · \(duration) ms from start to end" }
        }
        StandardOutput.line(line)
        // What the job was, from its terminal event (redacted there); older events lack them.
        if let source = event.source { StandardOutput.line("  source: " + EventFormatting.sanitized(source)) }
        if let chain = event.chain { StandardOutput.line("  chain:  " + EventFormatting.sanitized(chain)) }
        if !registered { StandardOutput.line("(from a scan of the event stream: no coordinator is registered)") }
    }
}

/// `status --job J --json`.
struct JobStatusRecord: Encodable {
    var job: String
    /// The job's latest event.
    var event: JobEvent
    /// Times a worker started it (coordinator).
    var starts: Int?
    /// From the latest start to the end (coordinator).
    var durationMs: Int64?
    /// `projection` (the coordinator's) or `stream` (a scan).
    var source: String
    /// True when the event was trimmed from the stream and `event` holds only the job's finished
    /// record (`JobProjection.trimmed`); absent otherwise.
    var eventTrimmed: Bool?
    /// With `eventTrimmed`, a succeeded job's number of outputs.
    var outputs: Int?
}
