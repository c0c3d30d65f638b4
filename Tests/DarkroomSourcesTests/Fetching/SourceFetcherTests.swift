import DarkroomTestSupport
import Testing

@testable import DarkroomSources

@Suite("Source fetcher: coalescing and the failed-source memory")
struct SourceFetcherTests {
    typealias Support = FetchingTestSupport

    @Test("20 concurrent fetches of one source make one provider fetch and get 20 identical results")
    func coalescesConcurrentFetches() async throws {
        let provider = CountingTestProvider(gated: true)
        let fetcher = try Support.fetcher(provider)
        let results = try await withThrowingTaskGroup(of: FetchedSource.self) { group in
            for _ in 0..<20 {
                group.addTask { try await fetcher.fetch(SourceReference("test:one"), policy: SourcePolicy()) }
            }
            try await Support.waitUntil("19 callers joined the first") { fetcher.statistics.coalescedWaiters == 19 }
            provider.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0.bytes == Array("test:one".utf8) && $0.cacheKey == "k:test:one" })
        #expect(provider.counts.fetches == 1)
        let statistics = fetcher.statistics
        #expect(statistics.fetchesStarted == 1)
        #expect(statistics.coalescedWaiters == 19)
        #expect(statistics.inFlight == 0)
    }

    @Test("references with the same provider cache key share a fetch; different policies never do")
    func coalescingKey() async throws {
        let provider = CountingTestProvider(
            gated: true,
            key: { reference in
                String(reference.raw.prefix(while: { $0 != "?" }))
            })
        let fetcher = try Support.fetcher(provider)
        var strict = SourcePolicy()
        strict.maxBytes = 10
        async let first = fetcher.fetch(SourceReference("test:a?x"), policy: SourcePolicy())
        async let second = fetcher.fetch(SourceReference("test:a?y"), policy: SourcePolicy())
        async let third = fetcher.fetch(SourceReference("test:a?x"), policy: strict)
        try await Support.waitUntil("three callers arrived") {
            let statistics = fetcher.statistics
            return statistics.fetchesStarted + statistics.coalescedWaiters == 3
        }
        provider.open()
        let results = try await [first, second, third]
        // Both default-policy callers got the one result fetched for "test:a?x" or "test:a?y".
        #expect(results[0].bytes == results[1].bytes)
        #expect(provider.counts.fetches == 2)
        #expect(fetcher.statistics.coalescedWaiters == 1)
    }

    @Test("a fetch after the shared one finished starts a new fetch (coalescing is not caching)")
    func sequentialFetchesAreNotShared() async throws {
        let provider = CountingTestProvider()
        let fetcher = try Support.fetcher(provider)
        _ = try await fetcher.fetch(SourceReference("test:x"), policy: SourcePolicy())
        _ = try await fetcher.fetch(SourceReference("test:x"), policy: SourcePolicy())
        #expect(provider.counts.fetches == 2)
    }

    @Test("a cancelled waiter stops waiting while the others still get the shared result")
    func cancellingOneWaiter() async throws {
        let provider = CountingTestProvider(gated: true)
        let fetcher = try Support.fetcher(provider)
        let keeper = Task { try await fetcher.fetch(SourceReference("test:c"), policy: SourcePolicy()) }
        let quitter = Task { try await fetcher.fetch(SourceReference("test:c"), policy: SourcePolicy()) }
        try await Support.waitUntil("both callers are waiting") { fetcher.statistics.coalescedWaiters == 1 }
        quitter.cancel()
        await #expect(throws: CancellationError.self) { try await quitter.value }
        provider.open()
        let kept = try await keeper.value
        #expect(kept.bytes == Array("test:c".utf8))
        #expect(provider.counts == .init(fetches: 1, cancelled: 0))
    }

    @Test("when every waiter is cancelled the shared fetch is cancelled, and the next caller starts afresh")
    func cancellingEveryWaiter() async throws {
        let provider = CountingTestProvider(gated: true)
        let fetcher = try Support.fetcher(provider)
        let tasks = (0..<3).map { _ in Task { try await fetcher.fetch(SourceReference("test:d"), policy: SourcePolicy()) } }
        try await Support.waitUntil("all callers are waiting") { fetcher.statistics.coalescedWaiters == 2 }
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        try await Support.waitUntil("the provider saw the cancellation") { provider.counts.cancelled == 1 }
        #expect(fetcher.statistics.inFlight == 0)
        // The provider's "cancelled" error was not remembered as a failure of the source.
        provider.open()
        let again = try await fetcher.fetch(SourceReference("test:d"), policy: SourcePolicy())
        #expect(again.bytes == Array("test:d".utf8))
        #expect(provider.counts.fetches == 2)
    }

    @Test("a task cancelled before it asks gets CancellationError and starts no fetch")
    func alreadyCancelled() async throws {
        let provider = CountingTestProvider()
        let fetcher = try Support.fetcher(provider)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fetcher.fetch(SourceReference("test:e"), policy: SourcePolicy())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(provider.counts.fetches == 0)
    }

    @Test("concurrent waiters on a failing fetch all get its error from one fetch")
    func sharedFailure() async throws {
        let provider = CountingTestProvider(gated: true, outcome: Support.failing(.httpServerError))
        let fetcher = try Support.fetcher(provider)
        let tasks = (0..<5).map { _ in Task { try await fetcher.fetch(SourceReference("test:f"), policy: SourcePolicy()) } }
        try await Support.waitUntil("all callers are waiting") { fetcher.statistics.coalescedWaiters == 4 }
        provider.open()
        for task in tasks {
            let error = await Support.sourceError { try await task.value }
            #expect(error?.code == .httpServerError)
        }
        #expect(provider.counts.fetches == 1)
    }

    @Test("a permanent failure is remembered: the next fetch fails at once with the same code, saying so")
    func permanentFailureRemembered() async throws {
        let provider = CountingTestProvider(outcome: Support.failing(.notFound))
        let fetcher = try Support.fetcher(provider)
        let first = await Support.sourceError { try await fetcher.fetch(SourceReference("test:404"), policy: SourcePolicy()) }
        let second = await Support.sourceError { try await fetcher.fetch(SourceReference("test:404"), policy: SourcePolicy()) }
        #expect(first?.code == .notFound)
        #expect(second?.code == .notFound)
        #expect(second?.source == "test:404")
        #expect(second?.message.hasPrefix("it failed (remembered: this source failed ") == true, "\(String(describing: second))")
        #expect(provider.counts.fetches == 1)
        #expect(fetcher.statistics.rememberedFailureHits == 1)
        #expect(fetcher.statistics.rememberedFailures == 1)
        // Under another policy the source is fetched again.
        var other = SourcePolicy()
        other.maxBytes = 1
        _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:404"), policy: other) }
        #expect(provider.counts.fetches == 2)
        fetcher.forgetFailures()
        _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:404"), policy: SourcePolicy()) }
        #expect(provider.counts.fetches == 3)
    }

    @Test("a remembered failure expires after the configured time")
    func rememberedFailureExpires() async throws {
        let provider = CountingTestProvider(outcome: Support.failing(.forbidden))
        // A 60 s window on a clock the test moves: the two back-to-back fetches fall inside it
        // however loaded the machine, and the expiry needs no sleeping.
        let clock = ManualInstantClock()
        let fetcher = try Support.fetcher(provider, memory: .seconds(60), clock: clock)
        _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:403"), policy: SourcePolicy()) }
        clock.advance(by: .seconds(59))
        _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:403"), policy: SourcePolicy()) }
        #expect(provider.counts.fetches == 1)
        clock.advance(by: .seconds(1))
        let later = await Support.sourceError { try await fetcher.fetch(SourceReference("test:403"), policy: SourcePolicy()) }
        #expect(later?.code == .forbidden)
        #expect(later?.message == "it failed")
        #expect(provider.counts.fetches == 2)
    }

    @Test("transient failures are not remembered", arguments: [SourceError.Code.timeout, .httpServerError, .rateLimited, .connection, .io])
    func transientNotRemembered(code: SourceError.Code) async throws {
        let provider = CountingTestProvider(outcome: Support.failing(code))
        let fetcher = try Support.fetcher(provider)
        for _ in 0..<3 {
            let error = await Support.sourceError { try await fetcher.fetch(SourceReference("test:t"), policy: SourcePolicy()) }
            #expect(error?.code == code)
        }
        #expect(provider.counts.fetches == 3)
        #expect(fetcher.statistics.rememberedFailureHits == 0)
        #expect(fetcher.statistics.rememberedFailures == 0)
    }

    @Test("the memory is bounded: past the limit the oldest failure is forgotten")
    func boundedMemory() async throws {
        let provider = CountingTestProvider(outcome: Support.failing(.notFound))
        let fetcher = try Support.fetcher(provider, limit: 3)
        for name in ["a", "b", "c", "d"] {
            _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:\(name)"), policy: SourcePolicy()) }
        }
        #expect(fetcher.statistics.rememberedFailures == 3)
        for name in ["b", "c", "d"] {
            _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:\(name)"), policy: SourcePolicy()) }
        }
        #expect(provider.counts.fetches == 4)
        _ = await Support.sourceError { try await fetcher.fetch(SourceReference("test:a"), policy: SourcePolicy()) }
        #expect(provider.counts.fetches == 5)
    }

    @Test("an inline payload longer than 8 KiB is fetched directly: neither shared nor remembered")
    func longReferencesBypass() async throws {
        let provider = CountingTestProvider(outcome: Support.failing(.invalid))
        let fetcher = try Support.fetcher(provider)
        let long = "test:" + String(repeating: "x", count: SourceFetcher.longestSharedReference)
        for _ in 0..<2 {
            let error = await Support.sourceError { try await fetcher.fetch(SourceReference(long), policy: SourcePolicy()) }
            #expect(error?.code == .invalid)
        }
        #expect(provider.counts.fetches == 2)
        #expect(fetcher.statistics.fetchesStarted == 2)
        #expect(fetcher.statistics.rememberedFailures == 0)
    }

    @Test("an error computing the cache key is returned without fetching")
    func keyError() async throws {
        let provider = CountingTestProvider()
        let fetcher = try Support.fetcher(provider)
        let error = await Support.sourceError { try await fetcher.fetch(SourceReference("test:x#bad-key"), policy: SourcePolicy()) }
        #expect(error?.code == .invalid)
        #expect(provider.counts.fetches == 0)
    }

    @Test("real providers work behind the fetcher: a missing file is remembered, a data: URI is decoded")
    func realProviders() async throws {
        let registry = try ProviderRegistry([FileProvider(pool: SourcesFileTestSupport.pool), DataURIProvider()])
        let fetcher = SourceFetcher(registry: registry)
        let data = try await fetcher.fetch(SourceReference("data:;base64,SGVsbG8="), policy: SourcePolicy())
        #expect(data.bytes == Array("Hello".utf8))
        let box = try SourcesFileSandbox()
        let file = try box.file("a.jpg", bytes: SourcesFileTestSupport.sample)
        let read = try await fetcher.fetch(SourceReference(file), policy: .interactive)
        #expect(read.bytes == SourcesFileTestSupport.sample)
        // The file key is known before fetching: the missing file fails in `cacheKey(for:)`.
        let missing = await Support.sourceError { try await fetcher.fetch(SourceReference(box.url("no.jpg")), policy: .interactive) }
        #expect(missing?.code == .notFound)
    }
}
