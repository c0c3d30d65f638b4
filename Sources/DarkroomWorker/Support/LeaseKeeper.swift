import DarkroomQueue
import DarkroomSystem
import Logging

/// Keeps the queue leases of jobs in hand fresh — running, or redelivered and waiting to run alone
/// — with one loop for the whole worker instead of a timer task per job: most jobs (cache hits)
/// finish in microseconds, long before their lease needs renewing, and should cost no more than
/// registering and unregistering here.
///
/// The loop wakes every half `interval` and renews the leases not renewed (or taken) for at least
/// half `interval`, so a job's lease is first renewed between `interval`/2 and `interval` after it
/// started and then at most `interval` apart — as often as a per-job timer renewing every
/// `interval` would, in the worst case (`interval` defaults to a third of the visibility timeout,
/// so two renewals can fail before a job counts as stalled).
final class LeaseKeeper: Sendable {
    private struct Held {
        var delivery: JobDelivery
        var renewedAt: Timestamp
    }

    private struct State {
        var nextToken = 0
        var held: [Int: Held] = [:]
    }

    private let state = Locked(State())
    private let clock: any QueueClock

    /// - Parameter clock: the time leases are renewed by (the worker's).
    init(clock: any QueueClock) {
        self.clock = clock
    }

    /// Starts keeping `delivery`'s lease; returns the token for `drop`.
    func keep(_ delivery: JobDelivery) -> Int {
        let now = clock.now()
        return state.withLock { state in
            state.nextToken &+= 1
            state.held[state.nextToken] = Held(delivery: delivery, renewedAt: now)
            return state.nextToken
        }
    }

    /// Stops renewing the lease of the job `keep` returned `token` for.
    func drop(_ token: Int) {
        _ = state.withLock { $0.held.removeValue(forKey: token) }
    }

    /// How many leases are kept now (for tests).
    var count: Int { state.withLock { $0.held.count } }

    /// Renews due leases every `interval`/2 until the task is cancelled.
    func run(queue: any JobQueueDriver, interval: Duration, logger: Logger) async {
        let tick = max(interval / 2, .milliseconds(1))
        while (try? await clock.sleep(for: tick)) != nil {
            let now = clock.now()
            let due = state.withLock { state -> [(Int, JobDelivery)] in
                state.held.compactMap { token, held in
                    // A negative age means the wall clock was set back: renew rather than wait for it.
                    let age = now.duration(since: held.renewedAt)
                    return age >= tick || age < .zero ? (token, held.delivery) : nil
                }
            }
            for (token, delivery) in due {
                let sentAt = clock.now()
                do {
                    if try await !queue.extendLease(delivery) {
                        logger.warning(
                            "lost the job's lease (reclaimed by another worker); its result may not count",
                            metadata: ["job": "\(delivery.job.id)"])
                    }
                    // Counted from when the renewal was sent: Redis reset the idle time then or later.
                    state.withLock { state in state.held[token]?.renewedAt = sentAt }
                } catch {
                    // Left due, so the next tick tries again.
                    logger.warning("could not renew the job's lease", metadata: ["job": "\(delivery.job.id)", "error": "\(error)"])
                }
            }
        }
    }
}
