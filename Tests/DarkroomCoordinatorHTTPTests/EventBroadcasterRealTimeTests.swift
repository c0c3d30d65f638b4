import DarkroomQueue
import DarkroomTestSupport
import Logging
import Testing

@testable import DarkroomCoordinatorHTTP

@Suite("Event broadcaster", .realTime)
struct EventBroadcasterRealTimeTests {
    @Test("Given a subscriber that stops reading, then it is dropped at its buffer's bound and the others get every event")
    func stalledSubscriberIsDropped() async throws {
        let queue = MemoryQueue()
        let broadcaster = EventBroadcaster(
            queue: queue, bufferSize: 4, pollWait: .milliseconds(20), logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let stalled = broadcaster.subscribe()
        let reader = broadcaster.subscribe(bufferSize: 100)
        let running = Task { await broadcaster.run() }
        let collected = Task {
            var workers: [String] = []
            for await item in reader.items {
                if case .event(let envelope) = item, let worker = envelope.event.worker { workers.append(worker) }
                if workers.count == 20 { break }
            }
            return workers
        }
        // Let the reader take its starting point (the newest event) before publishing.
        try await Task.sleep(for: .milliseconds(200))
        for index in 0..<20 {
            try await queue.publish([.workerOnline(worker: "w\(index)")])
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await collected.value == (0..<20).map { "w\($0)" })
        var kept = 0
        for await item in stalled.items { if case .event = item { kept += 1 } }
        #expect(kept == 4)
        let fellBehind = stalled.fellBehind.load(ordering: .relaxed)
        #expect(fellBehind)
        running.cancel()
        await running.value
    }
}
