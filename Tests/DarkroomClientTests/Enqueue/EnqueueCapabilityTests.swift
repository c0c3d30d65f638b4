import DarkroomChains
import DarkroomClient
import DarkroomQueue
import Testing

@Suite("Enqueue: what jobs require, and refusing what no live worker offers")
struct EnqueueCapabilityTests {
    static let defaults = EnqueueDefaults(chain: "resize(40x40)", format: "png", output: "/out", batch: "b1", workingDirectory: "/shared")

    /// A live worker from before capabilities: it runs `sepia`, and advertises no feature.
    static func oldWorker(on queue: MemoryQueue) async throws {
        try await queue.heartbeat(
            WorkerInfo(name: "old:1", host: "h", pid: 1, concurrency: 2, processors: ["resize": 1, "sepia": 1], version: "0.9", startedAt: .now()),
            ttl: .seconds(60))
    }

    @Test("Given baseline processors and no name, then the job requires nothing and goes to the plain lane")
    func plainJobRequiresNothing() async throws {
        let queue = MemoryQueue()
        try await Self.oldWorker(on: queue)
        let prepared = try await FleetClient(queue: queue).prepare([JobRequest(source: "a.jpg")], defaults: Self.defaults)
        #expect(prepared.jobs.map(\.requires) == [nil])
    }

    @Test("Given a plugin processor a live worker offers, then the job requires processor:<name> and is accepted")
    func pluginProcessorIsRequired() async throws {
        let queue = MemoryQueue()
        try await Self.oldWorker(on: queue)
        var defaults = Self.defaults
        defaults.chain = "sepia(0.5)|>resize(40x40)"
        let receipt = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        #expect(receipt.added == 1)
        #expect(receipt.jobs.first?.requires == ["processor:sepia"])
    }

    @Test("Given metadata and only a worker older than metadata, then the job requires metadata and is refused with enqueue.unoffered")
    func metadataIsRequired() async throws {
        let queue = MemoryQueue()
        try await Self.oldWorker(on: queue)
        var request = JobRequest(source: "a.jpg")
        request.metadata = #"{"upload":1}"#
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).prepare([request], defaults: Self.defaults)
        }
        #expect(refusal?.problems.first?.code == "enqueue.unoffered")
        var waiting = Self.defaults
        waiting.allowUnoffered = true
        let prepared = try await FleetClient(queue: queue).prepare([request], defaults: waiting)
        #expect(prepared.jobs.first?.requires == ["metadata"])
        #expect(prepared.jobs.first?.metadata == #"{"upload":1}"#)
    }

    @Test("Given --name and only a worker without output-name, then nothing is sent and the reason names the capability and the flag")
    func unofferedIsRefused() async throws {
        let queue = MemoryQueue()
        try await Self.oldWorker(on: queue)
        var defaults = Self.defaults
        defaults.name = "{id}.{ext}"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg"), JobRequest(source: "b.jpg")], defaults: defaults)
        }
        let message = refusal?.problems.first?.message ?? ""
        #expect(message.contains("2 jobs require output-name"))
        #expect(message.contains("--allow-unoffered"))
        #expect(try await queue.batchProgress("b1") == nil)
    }

    @Test("Given --allow-unoffered, then the jobs are sent with a note, and wait for a worker that offers the capability")
    func allowUnofferedEnqueues() async throws {
        let queue = MemoryQueue()
        try await Self.oldWorker(on: queue)
        var defaults = Self.defaults
        defaults.name = "{id}.{ext}"
        defaults.allowUnoffered = true
        let receipt = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        #expect(receipt.added == 1)
        #expect(receipt.jobs.first?.requires == ["output-name"])
        #expect(receipt.notes.contains { $0.contains("no live worker offers") })
        #expect(try await queue.reserve(consumer: "old:1", max: 1, wait: .zero, offering: Capabilities.offered(features: [], processors: ["resize"])).isEmpty)
        #expect(try await queue.reserve(consumer: "new:1", max: 1, wait: .zero, offering: [Capabilities.outputName]).count == 1)
    }

    @Test("Given no live worker at all, then jobs that require capabilities are sent, with a note that nothing was checked")
    func noWorkerIsNotARefusal() async throws {
        let queue = MemoryQueue()
        var defaults = Self.defaults
        defaults.name = "{id}.{ext}"
        let receipt = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        #expect(receipt.added == 1)
        #expect(receipt.notes.contains { $0.contains("no live worker") })
    }

    @Test("Given a live worker of this build, then it offers output-name and the job is accepted without a note")
    func currentWorkerOffersFeatures() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(
            WorkerInfo(
                name: "new:1", host: "h", pid: 1, concurrency: 2, processors: ["resize": 1],
                capabilities: Capabilities.honouredFeatures.sorted(), version: "1.0", startedAt: .now()),
            ttl: .seconds(60))
        var defaults = Self.defaults
        defaults.name = "{stem}-small.{ext}"
        let receipt = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        #expect(receipt.added == 1)
        #expect(receipt.notes.isEmpty)
    }
}
