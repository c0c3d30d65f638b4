import ArgumentParser
import DarkroomQueue
import DarkroomRedis
import DarkroomSystem

/// The exit statuses every command uses, by the one rule of `CommandExit`.
enum QueueExit {
    /// The command did what was asked and everything it reports succeeded.
    static let success = ExitCode(0)
    /// Work it reports on failed (`wait`: a job failed, died or was cancelled; `get`: no result).
    static let failed = ExitCode(1)
    /// Bad usage, found by the command or by the argument parser (`CommandExit` maps its 64 here).
    static let usage = ExitCode(2)
    /// Redis could not be reached (or refused our credentials), or the batch named is unknown.
    static let unreachable = ExitCode(3)
    /// `wait --timeout` ran out before every job ended: 124, the status of `timeout(1)`.
    static let timedOut = ExitCode(124)
}

/// Runs the body of a queue command and turns every failure into one clear line and an exit
/// status: usage mistakes 2, an unreachable Redis 3 (naming the URL without its password), any
/// other queue failure 1.
enum QueueCommandRunner {
    static func run(_ redis: RedisOptions, _ body: (RedisStreamsQueue) async throws -> Void) async throws {
        let queue: RedisStreamsQueue
        do {
            queue = try redis.openQueue()
        } catch {
            throw error.exit()
        }
        // The URL's description shows the password as ***.
        try await run(queue: queue, describing: queue.client.url.description, body)
    }

    /// `run` with a queue already made (tests pass a `MemoryQueue`). Generic so the body gets the
    /// queue with every capability it has, and passes on the composition each step needs.
    static func run<Queue: Sendable>(
        queue: Queue, describing location: String, _ body: (Queue) async throws -> Void
    ) async throws {
        do {
            try await body(queue)
        } catch let failure as UsageFailure {
            throw failure.exit()
        } catch let exit as ExitCode {
            throw exit
        } catch let error where isUnreachable(error) {
            StandardError.line("darkroom: cannot reach Redis at \(location): \(error)")
            throw QueueExit.unreachable
        } catch let error as JobQueueError where error.code == .invalidCursor {
            throw UsageFailure("\(error.message)").exit()
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
