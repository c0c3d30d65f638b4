import DarkroomSystem
import Synchronization
import Testing

@Suite("AsyncPermits")
struct AsyncPermitsTests {
    @Test("Given 3 permits and 10 tasks, never more than 3 hold one at once, and every task gets one")
    func boundsHolders() async throws {
        let permits = AsyncPermits(limit: 3)
        let holding = Tally()
        let most = Shared(0)
        let done = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await permits.withPermit {
                        let now = holding.increment()
                        most.update { $0 = max($0, now) }
                        // Let the other tasks try to get in while this one holds its permit.
                        for _ in 0..<50 { await Task.yield() }
                        holding.decrement()
                        done.increment()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.value == 3)
        #expect(done.value == 10)
    }

    @Test("Waiters get permits in the order they asked")
    func firstComeFirstServed() async throws {
        let permits = AsyncPermits(limit: 1)
        try await permits.acquire()
        let order = Shared<[Int]>([])
        let queued = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<4 {
                // Each waiter queues before the next starts.
                group.addTask {
                    queued.increment()
                    try await permits.acquire()
                    order.update { $0.append(n) }
                    permits.release()
                }
                await yieldUntil("waiter \(n) queued") { queued.value == n + 1 }
                for _ in 0..<100 { await Task.yield() }
            }
            permits.release()
            try await group.waitForAll()
        }
        #expect(order.value == [0, 1, 2, 3])
    }

    @Test("A task cancelled while it waits leaves the queue with CancellationError, and the permit goes to the next")
    func cancelledWaiterLeaves() async throws {
        let permits = AsyncPermits(limit: 1)
        try await permits.acquire()
        let waiting = Task {
            try await permits.acquire()
            permits.release()
        }
        for _ in 0..<200 { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        permits.release()
        // The permit is free again: acquiring does not wait.
        try await permits.acquire()
        permits.release()
    }
}

/// A value tasks of a test share, behind a lock (kept for its narrower API).
final class Shared<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    init(_ value: Value) { storage = Locked(value) }

    func update(_ change: (inout Value) -> Void) { storage.withLock { change(&$0) } }

    var value: Value { storage.withLock { $0 } }
}
