import DarkroomSystem
import Synchronization

/// Fetches sources through a `ProviderRegistry`, sharing work between concurrent callers and
/// remembering sources that failed for good.
///
/// - **Coalescing** (as SDWebImage and Nuke do): concurrent fetches of one source share a single
///   provider fetch, and every caller gets its result or its error. "One source" means the same
///   provider cache key (known before fetching for files), or the same reference text when the
///   key is only known afterwards (HTTP, `data:`), under the same policy: a fetch allowed by a
///   permissive policy is never handed to a caller with a stricter one. References longer than
///   `longestSharedReference` without a provider key (large `data:` URIs) are fetched directly.
/// - **Cancellation**: a cancelled caller stops waiting at once (it gets `CancellationError`);
///   the shared fetch goes on for the others, and is cancelled only when nobody waits any more.
/// - **Failed-source memory** (SDWebImage's failed-URL list): a source that failed permanently
///   (`!SourceError.isTransient`: 404, refused, too large, …) fails again at once with the same
///   error for `failureMemoryDuration`, without fetching; the message says it is remembered.
///   Transient failures (timeouts, 5xx) are not remembered: the queue retries them. At most
///   `failureMemoryLimit` sources are remembered; the oldest are dropped first.
///
/// A `final class` around a `Mutex` rather than an actor: every critical section is a few
/// dictionary operations, callers never hop to another executor, and the cancellation handler
/// (which runs synchronously, possibly on another thread) can take the same lock.
public final class SourceFetcher: Sendable {
    /// Counters for tests and metrics.
    public struct Statistics: Sendable, Equatable {
        /// Provider fetches started.
        public var fetchesStarted = 0
        /// Callers that joined a fetch already in flight instead of starting one.
        public var coalescedWaiters = 0
        /// Callers answered from the failed-source memory without fetching.
        public var rememberedFailureHits = 0
        /// Sources currently remembered as failed (expired ones may still be counted until looked
        /// up or pushed out).
        public var rememberedFailures = 0
        /// Fetches in flight now.
        public var inFlight = 0
    }

    public let registry: ProviderRegistry
    /// References longer than this (in UTF-8 bytes) whose provider cannot name a key before
    /// fetching are not coalesced or remembered (see `fetch`). Real URLs stay far below it.
    public static let longestSharedReference = 8192
    /// How long a permanent failure is remembered (default 60 s; zero disables the memory).
    public let failureMemoryDuration: Duration
    /// How many failed sources are remembered at most (default 10,000).
    public let failureMemoryLimit: Int

    private let state: Mutex<State>
    /// The time failures are remembered by.
    private let currentTime: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: the time the failed-source memory ages by; the continuous clock by
    ///   default (tests move it by hand instead of waiting for a failure to expire).
    public init(registry: ProviderRegistry, failureMemoryDuration: Duration = .seconds(60),
                failureMemoryLimit: Int = 10_000, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.registry = registry
        currentTime = now
        self.failureMemoryDuration = failureMemoryDuration
        self.failureMemoryLimit = failureMemoryLimit
        state = Mutex(State(failures: FailureMemory(duration: failureMemoryDuration, capacity: failureMemoryLimit)))
    }

    /// Fetches `reference` under `policy`, sharing a fetch already in flight for the same source.
    ///
    /// - Throws: `SourceError`, or `CancellationError` when the calling task is cancelled before
    ///   the fetch finishes.
    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws -> FetchedSource {
        let providerKey = try registry.cacheKey(for: reference, policy: policy)
        if providerKey == nil, reference.raw.utf8.count > Self.longestSharedReference {
            // A reference this long is an inline payload (a `data:` URI), not a location: there is
            // no I/O to share, and hashing megabytes as a dictionary key would cost about as
            // much as decoding them again. Fetched directly, neither shared nor remembered.
            state.withLock { $0.statistics.fetchesStarted += 1 }
            try Task.checkCancellation()
            return try await registry.fetch(reference, policy: policy)
        }
        let key = FetchKey(identity: providerKey.map { "key:" + $0 } ?? "raw:" + reference.raw, policy: policy)
        let waiter = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FetchedSource, any Error>) in
                let immediate = state.withLock { state -> (any Error)? in
                    // Checked under the lock: if cancellation comes later, the handler below
                    // finds this waiter registered and resumes it.
                    if Task.isCancelled { return CancellationError() }
                    if let (error, age) = state.failures.recall(key, now: currentTime()) {
                        state.statistics.rememberedFailureHits += 1
                        return remembered(error, age: age)
                    }
                    if state.inFlight[key] != nil {
                        state.inFlight[key]?.waiters[waiter] = continuation
                        state.statistics.coalescedWaiters += 1
                        return nil
                    }
                    state.nextID += 1
                    let id = state.nextID
                    let task = Task { [registry] in
                        let result: Result<FetchedSource, SourceError>
                        do throws(SourceError) {
                            result = .success(try await registry.fetch(reference, policy: policy))
                        } catch {
                            result = .failure(error)
                        }
                        self.complete(key, id: id, with: result)
                    }
                    state.inFlight[key] = InFlight(id: id, waiters: [waiter: continuation], task: task)
                    state.statistics.fetchesStarted += 1
                    return nil
                }
                if let immediate { continuation.resume(throwing: immediate) }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// The counters so far.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.rememberedFailures = state.failures.count
            statistics.inFlight = state.inFlight.count
            return statistics
        }
    }

    /// Forgets every remembered failure (for an operator who fixed the sources).
    public func forgetFailures() {
        state.withLock { $0.failures.removeAll() }
    }

    /// Hands the provider's result to every waiter and remembers a permanent failure.
    private func complete(_ key: FetchKey, id: UInt64, with result: Result<FetchedSource, SourceError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<FetchedSource, any Error>] in
            // Gone (or replaced) when every waiter was cancelled: nobody wants this result.
            guard let entry = state.inFlight[key], entry.id == id else { return [] }
            state.inFlight[key] = nil
            if case .failure(let error) = result, !error.isTransient {
                state.failures.remember(error, for: key, now: currentTime())
            }
            return Array(entry.waiters.values)
        }
        let shared = result.mapError { $0 as any Error }
        for waiter in waiters { waiter.resume(with: shared) }
    }

    /// A cancelled caller stops waiting; the last one to leave cancels the fetch.
    private func leave(_ key: FetchKey, waiter: UInt64) {
        let (continuation, task) = state.withLock { state -> (CheckedContinuation<FetchedSource, any Error>?, Task<Void, Never>?) in
            guard var entry = state.inFlight[key], let continuation = entry.waiters.removeValue(forKey: waiter) else {
                return (nil, nil)
            }
            if entry.waiters.isEmpty {
                state.inFlight[key] = nil
                return (continuation, entry.task)
            }
            state.inFlight[key] = entry
            return (continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        task?.cancel()
    }

    /// The remembered error, its message saying so.
    private func remembered(_ error: SourceError, age: Duration) -> SourceError {
        var copy = error
        copy.message += " (remembered: this source failed \(Self.seconds(age)) ago and is not fetched again "
            + "for \(Self.seconds(failureMemoryDuration - age)))"
        return copy
    }

    private static func seconds(_ duration: Duration) -> String {
        let tenths = duration.wholeTenthsOfSeconds
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

/// What identifies "the same source" for coalescing and the failure memory.
private struct FetchKey: Hashable, Sendable {
    /// `key:` + the provider's cache key, or `raw:` + the reference as written.
    let identity: String
    let policy: SourcePolicy
}

/// One provider fetch and the callers waiting for it.
private struct InFlight: Sendable {
    /// Tells this fetch from a later one for the same key.
    let id: UInt64
    var waiters: [UInt64: CheckedContinuation<FetchedSource, any Error>]
    let task: Task<Void, Never>
}

private struct State: Sendable {
    var inFlight: [FetchKey: InFlight] = [:]
    var failures: FailureMemory<FetchKey>
    var statistics = SourceFetcher.Statistics()
    var nextID: UInt64 = 0
}
