import DarkroomSystem
import DarkroomTestSupport
import Testing

private struct Broken: Error, Equatable {}

@Suite("RequestCoalescer: one piece of work per key, shared by its concurrent callers")
struct RequestCoalescerTests {
    @Test("Given work held in flight, when 10 callers ask for one key, then the work runs once and all get its value")
    func sharesWork() async throws {
        let coalescer = RequestCoalescer<String, Int>()
        let gate = TestGate()
        let runs = Tally()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await coalescer.value(for: "a") {
                        runs.increment()
                        _ = await gate.pass()
                        return 42
                    }
                }
            }
            await yieldUntil("9 callers joined the first") { coalescer.statistics.joined == 9 }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 10))
        #expect(runs.value == 1)
        #expect(coalescer.statistics == .init(started: 1, joined: 9))
        #expect(coalescer.inFlightCount == 0)
    }

    @Test("Given finished work, when the key is asked for again, then the work runs again (coalescing is not caching)")
    func doesNotCache() async throws {
        let coalescer = RequestCoalescer<String, Int>()
        let runs = Tally()
        for _ in 0..<2 {
            _ = try await coalescer.value(for: "a") { runs.increment() }
        }
        #expect(runs.value == 2)
        #expect(coalescer.statistics == .init(started: 2, joined: 0))
    }

    @Test("Given work for two keys, then each key runs its own work")
    func keysAreSeparate() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let gate = TestGate()
        async let a = coalescer.value(for: "a") {
            _ = await gate.pass()
            return "A"
        }
        async let b = coalescer.value(for: "b") {
            _ = await gate.pass()
            return "B"
        }
        await yieldUntil("both started") { gate.arrivals == 2 }
        #expect(coalescer.inFlightCount == 2)
        gate.open()
        #expect(try await [a, b] == ["A", "B"])
    }

    @Test("Given failing work, then every waiter gets its error")
    func sharesErrors() async throws {
        let coalescer = RequestCoalescer<String, Int>()
        let gate = TestGate()
        let tasks = (0..<3).map { _ in
            Task {
                try await coalescer.value(for: "a") {
                    _ = await gate.pass()
                    throw Broken()
                }
            }
        }
        await yieldUntil("2 callers joined the first") { coalescer.statistics.joined == 2 }
        gate.open()
        for task in tasks { await #expect(throws: Broken.self) { try await task.value } }
        #expect(coalescer.statistics.started == 1)
    }

    @Test("When one waiter is cancelled, then it stops waiting at once and the others still get the value")
    func cancelledWaiterLeaves() async throws {
        let coalescer = RequestCoalescer<String, Int>(cancelsAbandonedWork: true)
        let gate = TestGate()
        let keeper = Task { try await coalescer.value(for: "a") { await gate.pass() ? 1 : -1 } }
        let quitter = Task { try await coalescer.value(for: "a") { await gate.pass() ? 1 : -1 } }
        await yieldUntil("both callers are waiting") { coalescer.statistics.joined == 1 }
        quitter.cancel()
        await #expect(throws: CancellationError.self) { try await quitter.value }
        gate.open()
        #expect(try await keeper.value == 1)
    }

    @Test("Given the default, when every waiter leaves, then the work goes on and a new caller joins it")
    func abandonedWorkGoesOn() async throws {
        let coalescer = RequestCoalescer<String, Int>()
        let gate = TestGate()
        let finished = Tally()
        let work: @Sendable () async throws -> Int = {
            let passed = await gate.pass()
            finished.increment()
            return passed ? 7 : -1
        }
        let leaver = Task { try await coalescer.value(for: "a", work) }
        await yieldUntil("the work started") { gate.arrivals == 1 }
        leaver.cancel()
        await #expect(throws: CancellationError.self) { try await leaver.value }
        #expect(coalescer.inFlightCount == 1)
        let joiner = Task { try await coalescer.value(for: "a", work) }
        await yieldUntil("the new caller joined") { coalescer.statistics.joined == 1 }
        gate.open()
        #expect(try await joiner.value == 7)
        #expect(finished.value == 1)
        #expect(coalescer.statistics.started == 1)
    }

    @Test("Given cancelsAbandonedWork, when every waiter leaves, then the work is cancelled and the next caller starts afresh")
    func abandonedWorkCancelled() async throws {
        let coalescer = RequestCoalescer<String, Int>(cancelsAbandonedWork: true)
        let gate = TestGate()
        let sawCancellation = Tally()
        let tasks = (0..<3).map { _ in
            Task {
                try await coalescer.value(for: "a") {
                    if await gate.pass() { return 1 }
                    sawCancellation.increment()
                    throw CancellationError()
                }
            }
        }
        await yieldUntil("all callers are waiting") { coalescer.statistics.joined == 2 }
        for task in tasks { task.cancel() }
        for task in tasks { await #expect(throws: CancellationError.self) { try await task.value } }
        #expect(coalescer.inFlightCount == 0)
        await yieldUntil("the work saw the cancellation") { sawCancellation.value == 1 }
        gate.open()
        #expect(try await coalescer.value(for: "a") { 2 } == 2)
        #expect(coalescer.statistics.started == 2)
    }

    @Test("Given a task cancelled before it asks, then it gets CancellationError and starts nothing")
    func alreadyCancelled() async throws {
        let coalescer = RequestCoalescer<String, Int>()
        let runs = Tally()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await coalescer.value(for: "a") {
                runs.increment()
                return 1
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(runs.value == 0)
        #expect(coalescer.statistics.started == 0)
    }
}
