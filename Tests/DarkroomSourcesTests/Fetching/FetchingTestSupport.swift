import DarkroomSystem
import DarkroomTestSupport
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

    let schemes: Set<String>
    private let outcome: @Sendable (SourceReference) -> Result<FetchedSource, SourceError>
    private let key: @Sendable (SourceReference) -> String?
    private let counted = Locked(Counts())
    private let gate: TestGate

    init(
        schemes: Set<String> = ["test"], gated: Bool = false,
        key: @escaping @Sendable (SourceReference) -> String? = { _ in nil },
        outcome: @escaping @Sendable (SourceReference) -> Result<FetchedSource, SourceError> = FetchingTestSupport.success
    ) {
        self.schemes = schemes
        self.key = key
        self.outcome = outcome
        gate = TestGate(isOpen: !gated)
    }

    var counts: Counts { counted.withLock { $0 } }

    /// Lets every held and future fetch finish.
    func open() { gate.open() }

    func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        if reference.raw.hasSuffix("#bad-key") {
            throw SourceError(.invalid, source: reference.raw, "the key cannot be computed")
        }
        return key(reference)
    }

    func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        counted.withLock { $0.fetches += 1 }
        if !(await gate.pass()) {
            counted.withLock { $0.cancelled += 1 }
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
