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
/// The sharing and cancellation are a `RequestCoalescer`'s; the failure memory is the fetcher's
/// own, behind a `Locked` (every critical section is a few dictionary operations).
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

    private let state: Locked<State>
    /// Concurrent fetches of one source share one provider fetch, cancelled when nobody waits.
    private let fetches = RequestCoalescer<FetchKey, FetchedSource>(cancelsAbandonedWork: true)
    /// The time failures are remembered by.
    private let currentTime: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: the time the failed-source memory ages by; the continuous clock by
    ///   default (tests move it by hand instead of waiting for a failure to expire).
    public init(
        registry: ProviderRegistry, failureMemoryDuration: Duration = .seconds(60),
        failureMemoryLimit: Int = 10_000, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.registry = registry
        currentTime = now
        self.failureMemoryDuration = failureMemoryDuration
        self.failureMemoryLimit = failureMemoryLimit
        state = Locked(State(failures: FailureMemory(duration: failureMemoryDuration, capacity: failureMemoryLimit)))
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
        try Task.checkCancellation()
        if let remembered = recallFailure(key) { throw remembered }
        return try await fetches.value(for: key) { [self] in
            try await fetchOnce(reference, policy: policy, key: key)
        }
    }

    /// The counters so far.
    public var statistics: Statistics {
        let shared = fetches.statistics
        var statistics = state.withLock { state in
            var statistics = state.statistics
            statistics.rememberedFailures = state.failures.count
            return statistics
        }
        statistics.coalescedWaiters = shared.joined
        statistics.inFlight = fetches.inFlightCount
        return statistics
    }

    /// Forgets every remembered failure (for an operator who fixed the sources).
    public func forgetFailures() {
        state.withLock { $0.failures.removeAll() }
    }

    /// The shared provider fetch, which remembers a permanent failure before its waiters hear of it.
    private func fetchOnce(
        _ reference: SourceReference, policy: SourcePolicy,
        key: FetchKey
    ) async throws(SourceError) -> FetchedSource {
        // Asked again: the failure may have been remembered between the caller's look and the
        // moment its fetch started (the previous shared fetch finishing in between).
        if let remembered = recallFailure(key) { throw remembered }
        state.withLock { $0.statistics.fetchesStarted += 1 }
        do {
            return try await registry.fetch(reference, policy: policy)
        } catch {
            // A cancelled fetch was abandoned by every waiter: its error says nothing of the source.
            if !error.isTransient, !Task.isCancelled {
                state.withLock { $0.failures.remember(error, for: key, now: currentTime()) }
            }
            throw error
        }
    }

    /// The remembered failure for `key`, its message saying so, or nil.
    private func recallFailure(_ key: FetchKey) -> SourceError? {
        state.withLock { state -> SourceError? in
            guard let (error, age) = state.failures.recall(key, now: currentTime()) else { return nil }
            state.statistics.rememberedFailureHits += 1
            return remembered(error, age: age)
        }
    }

    /// The remembered error, its message saying so.
    private func remembered(_ error: SourceError, age: Duration) -> SourceError {
        var copy = error
        copy.message +=
            " (remembered: this source failed \(Self.seconds(age)) ago and is not fetched again "
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

private struct State: Sendable {
    var failures: FailureMemory<FetchKey>
    var statistics = SourceFetcher.Statistics()
}
