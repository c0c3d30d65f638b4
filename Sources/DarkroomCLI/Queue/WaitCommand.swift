import ArgumentParser
import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import Foundation

/// `darkroom wait BATCH [--timeout S] [--json]`.
struct WaitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until every job of a batch has ended.",
        discussion: """
            Follows the batch until every job has its terminal event (succeeded, failed, dead or \
            cancelled), showing a progress bar with rate and ETA on a terminal, then prints a summary: \
            the counts and the first few failures with their error codes. The counts are kept in \
            Redis by the same atomic steps that publish the events, so they stay right however much of \
            the event stream has been trimmed. Jobs enqueued into the batch while waiting are waited \
            for too.

            Exit status: 0 every job succeeded; 1 some failed, died or were cancelled; 2 bad usage; \
            3 the batch is unknown (never enqueued, or its record expired after 7 days) or Redis \
            cannot be reached; 124 --timeout passed first.
            """
    )

    @Argument(help: "The batch id printed by `darkroom enqueue`, or its --batch name.")
    var batch: String

    @Option(help: ArgumentHelp("Give up after this many seconds (exit 124).", valueName: "seconds"))
    var timeout: Double?

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    /// Failures printed live above the progress bar before the rest are only counted.
    static let liveFailureLines = 10

    func validate() throws {
        if let timeout, !(timeout.isFinite && timeout >= 0 && timeout <= 31_536_000) {
            throw UsageFailure("--timeout must be 0…31536000 seconds").validation
        }
    }

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            let bar = ProgressBar(total: 0, title: "batch \(EventFormatting.sanitized(batch))")
            var printed = 0
            let client = FleetClient(commandQueue: queue)
            let limit = timeout.map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
            let result = try await client.wait(
                for: batch, timeout: limit,
                onProgress: { progress in
                    bar.update(total: progress.total)
                    bar.update(finished: progress.finished, failed: progress.finished - progress.succeeded)
                },
                onFailure: { failure in
                    guard bar.isEnabled else { return }
                    printed += 1
                    if printed <= Self.liveFailureLines {
                        bar.message(WaitSummary.line(for: failure))
                    } else if printed == Self.liveFailureLines + 1 {
                        bar.message("… more failures are counted in the summary")
                    }
                },
                onNote: { note in
                    StandardError.line("darkroom: " + note)
                })
            guard let result else {
                StandardError.line(
                    "darkroom: unknown batch '\(EventFormatting.sanitized(batch))': nothing was ever enqueued into it, or its record expired (7 days after its last job ended)"
                )
                throw QueueExit.unreachable
            }
            bar.finish()
            let summary = WaitSummary(result)
            if json {
                StandardOutput.line(try summary.json())
            } else {
                for line in summary.lines { StandardOutput.line(line) }
            }
            throw summary.exitCode
        }
    }
}

/// What `wait` prints at the end, and its exit status.
struct WaitSummary: Encodable {
    var batch: String
    var total: Int
    var succeeded: Int
    var failed: Int
    var dead: Int
    var cancelled: Int
    var remaining: Int
    var complete: Bool
    var timedOut: Bool
    /// How long the batch took (from its first enqueue to its latest job's end) once complete;
    /// how long `wait` waited when it timed out, or when the queue keeps no batch times.
    var seconds: Double
    /// What `seconds` measures: `batch` or `wait`.
    var measured: String
    var failures: [BatchFailure]

    init(_ result: BatchWaitResult) {
        batch = result.batch
        total = result.progress.total
        succeeded = result.progress.succeeded
        failed = result.progress.failed
        dead = result.progress.dead
        cancelled = result.progress.cancelled
        remaining = result.progress.remaining
        complete = result.progress.isComplete
        timedOut = result.timedOut && !result.progress.isComplete
        let batchDuration = timedOut ? nil : result.duration
        seconds = ((batchDuration ?? result.elapsed).inSeconds * 1000).rounded() / 1000
        measured = batchDuration == nil ? "wait" : "batch"
        failures = result.failures
    }

    var exitCode: ExitCode {
        if timedOut { return QueueExit.timedOut }
        return succeeded == total ? QueueExit.success : QueueExit.failed
    }

    var counts: String {
        "\(succeeded) succeeded, \(failed) failed, \(dead) dead, \(cancelled) cancelled"
    }

    var lines: [String] {
        let name = EventFormatting.sanitized(batch)
        var lines: [String]
        if timedOut {
            lines = [
                "batch \(name): timed out after \(Self.format(seconds)) with \(remaining) of \(total) job\(total == 1 ? "" : "s") unfinished; so far \(counts)"
            ]
        } else {
            // Without the batch's times, say whose time it is: the wait may have begun late.
            let time = measured == "batch" ? Self.format(seconds) : "waited \(Self.format(seconds))"
            lines = ["batch \(name): \(total) job\(total == 1 ? "" : "s") — \(counts) (\(time))"]
        }
        lines += failures.map { "  " + Self.line(for: $0) }
        let unlisted = failed + dead - failures.count
        if unlisted > 0 {
            lines.append("  … \(unlisted) more: darkroom events --batch \(name) --type failed,dead")
        }
        return lines
    }

    /// `failed job=… attempt=2 source.not-found: …`.
    static func line(for failure: BatchFailure) -> String {
        var text = failure.type.padding(toLength: 6, withPad: " ", startingAt: 0) + " job=" + EventFormatting.quoted(failure.job)
        if let attempt = failure.attempt { text += " attempt=\(attempt)" }
        if let code = failure.code {
            text += " " + EventFormatting.describe(JobError(code: code, message: failure.message ?? ""))
        }
        return text
    }

    static func format(_ seconds: Double) -> String {
        seconds < 60 ? "\((seconds * 10).rounded() / 10) s" : ProgressBar.clock(seconds)
    }

    func json() throws -> String {
        try JSONText.line(self)
    }
}
