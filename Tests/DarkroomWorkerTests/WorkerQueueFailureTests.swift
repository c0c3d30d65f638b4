import DarkroomQueue
import DarkroomWorker
import Foundation
import Testing

@Suite("Worker when the queue itself fails (Redis down)")
struct WorkerQueueFailureTests {
    @Test("While every queue call fails the worker keeps retrying; once the queue answers, the job runs")
    func survivesAnOutage() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let memory = MemoryQueue()
        let flaky = FlakyQueue(memory, down: true)
        let worker = Worker(
            queue: flaky, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
            configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        _ = try await memory.enqueue([WorkerTestKit.job(source)])
        #expect(await WorkerTestKit.eventually { flaky.failedCalls >= 5 })
        #expect(try await memory.counts().ready[.normal] == 1)

        flaky.isDown = false
        let events = try await WorkerTestKit.finish("b", on: memory)
        // The heartbeat loop registers at its next beat after the queue answers again.
        #expect(await WorkerTestKit.eventually { try await WorkerTestKit.events(on: memory).contains { $0.type == .workerOnline } })
        try await running.stop()
        #expect(events.map(\.type) == [.batchEnqueued, .started, .succeeded])
        // Registered once the queue answered: the online event came late, and the offline one too.
        let all = try await WorkerTestKit.events(on: memory).map(\.type)
        #expect(all.contains(.workerOnline))
        #expect(all.last == .workerOffline)
    }

    @Test("A job whose acknowledgement keeps failing stays pending, and another worker reclaims and finishes it")
    func failedAcknowledgementIsReclaimed() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        // Visibility is timed by a clock the test moves: the job goes stale when the test says so.
        let clock = ManualQueueClock()
        let memory = MemoryQueue(configuration: JobQueueConfiguration(visibilityTimeout: .milliseconds(300)), clock: clock)
        let flaky = FlakyQueue(memory, failAcknowledgements: true)
        let unlucky = WorkerTestKit.Running(
            Worker(
                queue: flaky, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(name: "unlucky"),
                logger: WorkerTestKit.silent, clock: clock))
        _ = try await memory.enqueue([WorkerTestKit.job(source)])
        // The queue backoff allows five tries; then the worker gives up on that acknowledgement.
        #expect(await WorkerTestKit.eventually { flaky.failedCalls >= 5 })
        try await unlucky.stop()
        #expect(!(try await WorkerTestKit.events(on: memory)).contains { $0.isTerminal })
        #expect(try await memory.counts().pending == 1)

        clock.advance(by: .seconds(1))
        let rescuer = WorkerTestKit.Running(
            Worker(
                queue: memory, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(name: "rescuer"),
                logger: WorkerTestKit.silent, clock: clock))
        let events = try await WorkerTestKit.finish("b", on: memory)
        try await rescuer.stop()
        let terminal = events.filter(\.isTerminal)
        #expect(terminal.count == 1)
        #expect(terminal.first?.type == .succeeded && terminal.first?.worker == "rescuer" && terminal.first?.attempt == 2)
    }
}
