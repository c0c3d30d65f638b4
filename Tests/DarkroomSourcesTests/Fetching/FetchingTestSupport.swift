import DarkroomTestSupport
import Synchronization
import Testing

@testable import DarkroomSources

/// A test-only provider for the `test:` scheme that counts its fetches and, when gated, holds
/// every fetch until the test opens the gate, so "concurrent" is guaranteed rather than hoped
/// for. Coalescing is the unit under test, so a double stands in for the network here.
final class CountingTestProvider: DataProviding {
    struct Counts: Equatable {
        var fetches = 0
        var cancelled = 0
    }

    private struct State {
        var counts = Counts()
        var isOpen: Bool
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    let schemes: Set<String>
    private let outcome: @Sendable (SourceReference) -> Result<FetchedSource, SourceError>
    private let key: @Sendable (SourceReference) -> String?
    private let state: Mutex<State>

    init(
        schemes: Set<String> = ["test"], gated: Bool = false,
        key: @escaping @Sendable (SourceReference) -> String? = { _ in nil },
        outcome: @escaping @Sendable (SourceReference) -> Result<FetchedSource, SourceError> = FetchingTestSupport.success
    ) {
        self.schemes = schemes
        self.key = key
        self.outcome = outcome
        state = Mutex(State(isOpen: !gated))
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// Lets every held and future fetch finish.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }

    func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        if reference.raw.hasSuffix("#bad-key") {
            throw SourceError(.invalid, source: reference.raw, "the key cannot be computed")
        }
        return key(reference)
    }

    func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        let id = state.withLock { state in
            state.counts.fetches += 1
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let proceed = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if proceed { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
            continuation?.resume()
        }
        if Task.isCancelled {
            state.withLock { $0.counts.cancelled += 1 }
            throw SourceError(.timeout, source: reference.raw, "cancelled")
        }
        return try outcome(reference).get()
    }
}

enum FetchingTestSupport {
    @Sendable static func success(_ reference: SourceReference) -> Result<FetchedSource, SourceError> {
        .success(
            FetchedSource(
                bytes: Array(reference.raw.utf8), cacheKey: "k:" + reference.raw,
                finalLocation: reference.raw))
    }

    static func failing(_ code: SourceError.Code) -> @Sendable (SourceReference) -> Result<FetchedSource, SourceError> {
        { reference in .failure(SourceError(code, source: reference.raw, "it failed")) }
    }

    static func fetcher(
        _ provider: CountingTestProvider, memory: Duration = .seconds(60),
        limit: Int = 10_000, clock: ManualInstantClock = ManualInstantClock()
    ) throws -> SourceFetcher {
        SourceFetcher(
            registry: try ProviderRegistry([provider]), failureMemoryDuration: memory,
            failureMemoryLimit: limit, now: clock.now)
    }

    /// Waits (polling) until `condition` holds; records an issue after about 30 s instead of hanging.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<3000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out waiting until \(what)")
    }

    /// The `SourceError` `body` throws; records an issue if it throws nothing or something else.
    static func sourceError(_ body: () async throws -> FetchedSource) async -> SourceError? {
        do {
            let fetched = try await body()
            Issue.record("expected a failure, got \(fetched.bytes.count) bytes")
        } catch let error as SourceError {
            return error
        } catch {
            Issue.record("expected a SourceError, got \(error)")
        }
        return nil
    }
}
