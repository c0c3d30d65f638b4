import DarkroomChains
import DarkroomClient
import DarkroomQueue
import Testing

@Suite("Enqueue: a chain with a focal point requires focus-point, one with an aspect ratio aspect-ratio")
struct FocusAspectRequirementTests {
    static let defaults = EnqueueDefaults(
        chain: "crop(400x300, focus: 0.8,0.3)", format: "png", output: "/out", batch: "b1", workingDirectory: "/shared")

    @Test(
        "Given focus or aspect in a chain, then the job requires the matching feature; chains without them require what they did",
        arguments: [
            ("crop(400x300, focus: 0.8,0.3)", ["focus-point"] as [String]?),
            ("resize(40x40, fill, focus: (0.5, 0.2))", ["focus-point"]),
            ("crop(400x, focus: 0.1,0.1)|>resize(9x9, mode: fill, focus: 0,0)", ["box-size", "focus-point"]),
            ("extend(aspect: 16:9)", ["aspect-ratio", "processor:extend"]),
            ("crop(400x300)|>resize(40x40, fill)", nil),
            ("extend(800x600)", ["processor:extend"]),
        ])
    func requirement(chain: String, expected: [String]?) async throws {
        // What a job with `chain` requires (the box-size suite's helper: it sets the chain).
        #expect(try await BoxSizeRequirementTests.requires(chain) == expected)
    }

    @Test("Given only a worker older than focal points, then the job is refused naming focus-point, and that worker never reserves it")
    func olderWorkerLeavesIt() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(
            WorkerInfo(
                name: "old:1", host: "h", pid: 1, concurrency: 2, processors: ["crop": 1],
                capabilities: [Capabilities.outputName, Capabilities.boxSize], version: "0.9", startedAt: .now()),
            ttl: .seconds(60))
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: Self.defaults)
        }
        #expect(refusal?.problems.first?.message.contains("focus-point") == true)
        var waiting = Self.defaults
        waiting.allowUnoffered = true
        #expect(try await FleetClient(queue: queue).enqueue([JobRequest(source: "a.jpg")], defaults: waiting).added == 1)
        let older = Capabilities.offered(features: [Capabilities.outputName, Capabilities.boxSize], processors: ["crop"])
        #expect(try await queue.reserve(consumer: "old:1", max: 1, wait: .zero, offering: older).isEmpty)
        let current = Capabilities.offered(features: Capabilities.honouredFeatures, processors: ["crop"])
        #expect(try await queue.reserve(consumer: "new:1", max: 1, wait: .zero, offering: current).count == 1)
        #expect(Capabilities.honouredFeatures.isSuperset(of: [Capabilities.focusPoint, Capabilities.aspectRatio]))
    }
}
