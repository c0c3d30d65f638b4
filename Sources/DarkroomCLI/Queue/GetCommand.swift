import ArgumentParser
import DarkroomClient
import DarkroomQueue
import Foundation

/// `darkroom get JOB -o FILE`.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Copy a finished job's result to a file.",
        discussion: """
            Finds the job's `succeeded` event (in its projection when a coordinator is registered, \
            else in the event stream) and copies its result — the file the \
            worker wrote under the job's --out directory, or its entry in the shared cache — to FILE \
            atomically (FILE appears whole or not at all; - writes to standard output; an existing \
            directory receives the result under its own name). The result's path must be readable \
            here: run it on a host that mounts the workers' shared volume.

            Limits: without a coordinator only events the stream still holds are searched (about the \
            last 100,000 by default), so the result of a job whose events were trimmed cannot be \
            found; with one, jobs are kept 7 days. A cache entry \
            can be evicted — then re-run the job (enqueue it again with --out to keep its result).

            Exit status: 0 copied; 1 the job is unknown, not finished, did not succeed, or its result \
            is gone; 2 bad usage; 3 Redis unreachable.
            """
    )

    @Argument(help: "A job id, or a source enqueued with --id-from-source (its latest job; --print-ids shows each id).")
    var job: String

    @Option(name: .short, help: ArgumentHelp("Where to write the result (- for standard output).", valueName: "file"))
    var output: String

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        guard JobID(rawValue: job) != nil else { throw UsageFailure("'\(EventFormatting.sanitized(String(job.prefix(40))))' is not a job id").exit() }
    }

    func run() async throws {
        guard let id = JobID(rawValue: job) else { throw QueueExit.usage }
        try await QueueCommandRunner.run(redis) { queue in
            let status = try await FleetClient(commandQueue: queue).lookup(id)
            let result: JobResult
            do {
                result = try ResultFetch.result(of: status, job: id)
            } catch let failure as ResultFetch.Failure {
                StandardError.line("darkroom: \(failure.message)")
                throw QueueExit.failed
            }
            let copied: (path: String, bytes: Int)
            do {
                copied = try AtomicFileCopy.copy(result.output ?? "", to: output)
            } catch AtomicFileCopy.Failure.sourceMissing(let path) {
                StandardError.line(
                    "darkroom: job \(id): its result \(EventFormatting.sanitized(path)) is gone (evicted from the cache, or deleted); run the job again, e.g. with --out DIR so the result is kept"
                )
                throw QueueExit.failed
            } catch {
                StandardError.line("darkroom: job \(id): \(error)")
                throw QueueExit.failed
            }
            if copied.bytes != result.bytes {
                StandardError.line(
                    "darkroom: warning: \(copied.bytes) bytes copied but the job reported \(result.bytes); the file may have been replaced since")
            }
            if output != "-" {
                StandardOutput.line("\(EventFormatting.sanitized(copied.path)): \(result.width)x\(result.height) \(result.format), \(copied.bytes) bytes")
            }
        }
    }
}

/// Turns a job's status into its result, or a failure with the message `get` prints.
enum ResultFetch {
    struct Failure: Error, Equatable {
        var message: String
    }

    static func result(of status: JobStatus, job: JobID) throws(Failure) -> JobResult {
        let name = "job \(EventFormatting.sanitized(job.rawValue))"
        switch status {
        case .ended(let event) where event.type == .succeeded:
            guard let result = event.result, let output = result.output, !output.isEmpty else {
                throw failure(
                    "\(name) succeeded, but its result was kept only in the worker's memory (no --out and no shared cache); run it again with --out DIR")
            }
            return result
        case .ended(let event):
            var text = "\(name) did not succeed: it ended \(event.type.rawValue) at \(event.at.iso8601)"
            if let error = event.error { text += " (\(EventFormatting.describe(error)))" }
            // What the job was, so the failure can be found and fixed at its source.
            if let source = event.source { text += "; source \(EventFormatting.sanitized(source))" }
            if let chain = event.chain { text += ", chain \(EventFormatting.sanitized(chain))" }
            throw failure(text)
        case .running(let event):
            throw failure(
                "\(name) is not finished: \(event.worker.map { "worker \(EventFormatting.sanitized($0))" } ?? "a worker") started attempt \(event.attempt ?? 1) at \(event.at.iso8601); try again later, or `darkroom wait` its batch"
            )
        case .retrying(let event):
            throw failure(
                "\(name) is not finished: attempt \(event.attempt ?? 1) failed (\(event.error.map(EventFormatting.describe) ?? "?")) and it will be retried")
        case .notFound:
            throw failure(
                "\(name) has no events: it is unknown, still queued, or its events were trimmed (without a coordinator the stream keeps about the last 100,000)"
            )
        }
    }

    private static func failure(_ message: String) -> Failure { Failure(message: message) }
}
