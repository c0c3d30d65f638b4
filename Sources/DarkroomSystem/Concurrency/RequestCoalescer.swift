import Synchronization

/// Runs one piece of work per key at a time and hands its outcome to every caller that asked for
/// that key while it ran (Nuke's task coalescing, SDWebImage's "one download per URL"): twenty
/// concurrent requests for one result compute it once. Coalescing is not caching: a caller that
/// arrives after the work finished starts it again.
///
/// - **Cancellation**: a cancelled caller stops waiting at once (it gets `CancellationError`);
///   the work goes on for the others. A caller already cancelled when it asks starts nothing.
/// - **Abandoned work**: when the last caller waiting for a key leaves, the work either goes on
///   (so its side effects, a cache entry say, still happen, and a new caller can join it) or, with
///   `cancelsAbandonedWork`, is cancelled and forgotten, so the next caller starts afresh.
///
/// The work runs in an unstructured task owned by the coalescer, so no caller's cancellation
/// reaches it. A `final class` around a `Locked` rather than an actor: every critical section is a
/// few dictionary operations, callers never hop to another executor, and the cancellation
/// handler (which runs synchronously, possibly on another thread) can take the same lock.
public final class RequestCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Counters for tests and metrics.
    public struct Statistics: Sendable, Equatable {
        /// Pieces of work started.
        public var started = 0
        /// Callers that joined work already in flight instead of starting it.
        public var joined = 0

        public init(started: Int = 0, joined: Int = 0) {
            self.started = started
            self.joined = joined
        }
    }

    /// Whether work nobody waits for any more is cancelled (see the type's documentation).
    public let cancelsAbandonedWork: Bool

    private let state = Locked(State())

    /// A coalescer whose abandoned work goes on (the default) or, with `cancelsAbandonedWork`,
    /// is cancelled when its last caller leaves.
    public init(cancelsAbandonedWork: Bool = false) {
        self.cancelsAbandonedWork = cancelsAbandonedWork
    }

    /// The outcome of the work in flight for `key`, or of `work`, started now when there is none.
    ///
    /// - Throws: what `work` throws, or `CancellationError` when the calling task is cancelled
    ///   before the work finishes.
    public func value(for key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiter = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let refused = state.withLock { state -> Bool in
                    // Checked under the lock: if cancellation comes later, `leave` finds this
                    // waiter registered and resumes it.
                    if Task.isCancelled { return true }
                    if state.inFlight[key] != nil {
                        state.inFlight[key]?.waiters[waiter] = continuation
                        state.statistics.joined += 1
                        return false
                    }
                    let id = state.makeID()
                    let task = Task {
                        let outcome: Result<Value, any Error>
                        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
                        self.complete(key, id: id, with: outcome)
                    }
                    state.inFlight[key] = InFlight(id: id, waiters: [waiter: continuation], task: task)
                    state.statistics.started += 1
                    return false
                }
                if refused { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// How many keys have work in flight now.
    public var inFlightCount: Int { state.withLock { $0.inFlight.count } }

    /// The counters so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Hands the outcome to every waiter.
    private func complete(_ key: Key, id: UInt64, with outcome: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            // Gone (or replaced by later work) when it was abandoned and cancelled: nobody wants it.
            guard let entry = state.inFlight[key], entry.id == id else { return [] }
            state.inFlight[key] = nil
            return Array(entry.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// A cancelled caller stops waiting; with `cancelsAbandonedWork`, the last one to leave
    /// cancels the work.
    private func leave(_ key: Key, waiter: UInt64) {
        let cancelsAbandonedWork = cancelsAbandonedWork
        let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard var entry = state.inFlight[key], let continuation = entry.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            if entry.waiters.isEmpty, cancelsAbandonedWork {
                state.inFlight[key] = nil
                return (continuation, entry.task)
            }
            state.inFlight[key] = entry
            return (continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// One piece of work and the callers waiting for it.
    private struct InFlight: Sendable {
        /// Tells this work from later work for the same key.
        let id: UInt64
        var waiters: [UInt64: CheckedContinuation<Value, any Error>]
        let task: Task<Void, Never>
    }

    private struct State: Sendable {
        var inFlight: [Key: InFlight] = [:]
        var statistics = Statistics()
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }
}
