import DarkroomChains
import DarkroomClient
import DarkroomQueue
import Testing

@Suite("Enqueue: a chain with a width-only or height-only box requires box-size")
struct BoxSizeRequirementTests {
    static let defaults = EnqueueDefaults(chain: "downsample(400x)", format: "png", output: "/out", batch: "b1", workingDirectory: "/shared")

    /// A live worker from before one-sided boxes: it runs `sepia` and offers `output-name` only.
    static func olderWorker(on queue: MemoryQueue) async throws {
        try await queue.heartbeat(
            WorkerInfo(
                name: "old:1", host: "h", pid: 1, concurrency: 2, processors: ["downsample": 1, "sepia": 1],
                capabilities: [Capabilities.outputName], version: "0.9", startedAt: .now()),
            ttl: .seconds(60))
    }

    static func requires(_ chain: String, queue: MemoryQueue = MemoryQueue()) async throws -> [String]? {
        var defaults = Self.defaults
        defaults.chain = chain
        defaults.allowUnoffered = true
        return try await FleetClient(queue: queue).prepare([JobRequest(source: "a.jpg")], defaults: defaults).jobs.first?.requires
    }

    @Test(
        "Given a one-sided box in downsample, resize or crop, then the job requires box-size; two-sided boxes require nothing",
        arguments: [
            ("downsample(400x)", ["box-size"] as [String]?), ("downsample(X300)", ["box-size"]), ("resize(x300, mode: stretch)", ["box-size"]),
            ("blur(2)|>crop(400x)|>downsample(400x)", ["box-size"]), ("downsample(400x300)|>crop(65535x10)", nil),
            ("resize(40x40, fill)", nil),
        ])
    func requirement(chain: String, expected: [String]?) async throws {
        #expect(try await Self.requires(chain) == expected)
    }

    @Test("Given a plugin processor and a one-sided box, then both are required, sorted")
    func withPlugin() async throws {
        let queue = MemoryQueue()
        try await Self.olderWorker(on: queue)
        #expect(try await Self.requires("sepia(0.5)|>downsample(x300)", queue: queue) == ["box-size", "processor:sepia"])
    }

    @Test("Given only a worker older than one-sided boxes, then the job is refused naming box-size, and that worker never reserves it")
    func olderWorkerLeavesIt() async throws {
        let queue = MemoryQueue()
        try await Self.olderWorker(on: queue)
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: Self.defaults)
        }
        #expect(refusal?.problems.first?.code == "enqueue.unoffered")
        #expect(refusal?.problems.first?.message.contains("box-size") == true)
        var waiting = Self.defaults
        waiting.allowUnoffered = true
        #expect(try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: waiting).added == 1)
        let older = Capabilities.offered(features: [Capabilities.outputName], processors: ["downsample"])
        #expect(try await queue.reserve(consumer: "old:1", max: 1, wait: .zero, offering: older).isEmpty)
        let current = Capabilities.offered(features: Capabilities.honouredFeatures, processors: ["downsample"])
        #expect(try await queue.reserve(consumer: "new:1", max: 1, wait: .zero, offering: current).count == 1)
    }

    @Test("This build's workers honour box-size")
    func honoured() {
        #expect(Capabilities.honouredFeatures.contains(Capabilities.boxSize))
        #expect(Capabilities.isValidName(Capabilities.boxSize))
    }
}
