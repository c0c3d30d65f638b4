import ArgumentParser
import DarkroomClient
import DarkroomQueue
import DarkroomRedis
import Foundation

/// `darkroom get JOB [NAME] -o FILE`.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Copy a finished job's result to a file.",
        discussion: """
            Finds the job's `succeeded` event (in its projection when a coordinator is registered, \
            else in the event stream) and copies its result — the file the \
            worker wrote under the job's --out directory, or its entry in the shared cache — to FILE \
            atomically (FILE appears whole or not at all; - writes to standard output; an existing \
            directory receives the result under its own name). For a job with renditions, NAME picks \
            the rendition to copy (default: the first). The result's path must be readable \
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

    @Argument(help: "For a job with renditions: the rendition to copy (default: the first).")
    var rendition: String?

    @Option(name: .short, help: ArgumentHelp("Where to write the result (- for standard output).", valueName: "file"))
    var output: String

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        guard JobID(rawValue: job) != nil else { throw UsageFailure("'\(EventFormatting.sanitized(String(job.prefix(40))))' is not a job id").validation }
    }

    func run() async throws {
        guard let id = JobID(rawValue: job) else { throw QueueExit.usage }
        try await QueueCommandRunner.run(redis) { queue in
            // Read before the lookup, which decides the same way (a checkpoint means projections).
            let search = JobSearch(try await RedisCoordinatorStore(queue: queue).coordinatorRegistration())
            let status = try await FleetClient(commandQueue: queue).lookup(id)
            let result: JobResult
            do {
                result = try ResultFetch.rendition(rendition, of: ResultFetch.result(of: status, job: id, searched: search), job: id)
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
