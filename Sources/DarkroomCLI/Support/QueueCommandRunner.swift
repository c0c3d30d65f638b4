import ArgumentParser
import DarkroomQueue
import DarkroomRedis
import DarkroomSystem

/// The exit statuses shared by the queue commands.
enum QueueExit {
    /// The command did what was asked and everything it reports succeeded.
    static let success = ExitCode(0)
    /// Work it reports on failed (`wait`: a job failed, died or was cancelled; `get`: no result).
    static let failed = ExitCode(1)
    /// Bad usage found by the command (malformed command lines exit 64 from the argument parser);
    /// for `wait`, its --timeout running out.
    static let usage = ExitCode(2)
    /// Redis could not be reached (or refused our credentials), or `wait` named an unknown batch.
    static let unreachable = ExitCode(3)
}

/// Runs the body of a queue command and turns every failure into one clear line and an exit
/// status: usage mistakes 2, an unreachable Redis 3 (naming the URL without its password), any
/// other queue failure 1.
enum QueueCommandRunner {
    /// `usageExit` is the status for usage mistakes found while running: 2, except for `wait`,
    /// where 2 means a timeout and usage mistakes exit 64 like the argument parser's own.
    static func run(
        _ redis: RedisOptions, usageExit: ExitCode = QueueExit.usage,
        _ body: (RedisStreamsQueue) async throws -> Void
    ) async throws {
        let queue: RedisStreamsQueue
        do {
            queue = try redis.openQueue()
        } catch {
            _ = error.exit()
            throw usageExit
        }
        // The URL's description shows the password as ***.
        try await run(queue: queue, describing: queue.client.url.description, usageExit: usageExit, body)
    }

    /// `run` with a queue already made (tests pass a `MemoryQueue`). Generic so the body gets the
    /// queue with every capability it has, and passes on the composition each step needs.
    static func run<Queue: Sendable>(
        queue: Queue, describing location: String, usageExit: ExitCode = QueueExit.usage,
        _ body: (Queue) async throws -> Void
    ) async throws {
        do {
            try await body(queue)
        } catch let failure as UsageFailure {
            _ = failure.exit()
            throw usageExit
        } catch let exit as ExitCode {
            throw exit
        } catch let error where isUnreachable(error) {
            StandardError.line("darkroom: cannot reach Redis at \(location): \(error)")
            throw QueueExit.unreachable
        } catch let error as JobQueueError where error.code == .invalidCursor {
            _ = UsageFailure("\(error.message)").exit()
            throw usageExit
        } catch {
            StandardError.line("darkroom: \(error)")
            throw QueueExit.failed
        }
    }

    /// Whether `error` means the queue's backend is out of reach (down, unreachable, timing out,
    /// refusing our credentials) rather than that an operation was wrong: what the error says
    /// about itself (`DarkroomError.isUnavailable`), read through `ErrorSummary`.
    static func isUnreachable(_ error: any Error) -> Bool {
        ErrorSummary(error).isUnavailable
    }
}
