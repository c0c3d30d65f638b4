import DarkroomChains
import DarkroomClient
import DarkroomQueue
import Testing

@Suite("Enqueue: an output format outside the baseline requires format:<name>")
struct EnqueueFormatCapabilityTests {
    static let defaults = EnqueueDefaults(chain: "resize(40x40)", output: "/out", batch: "b1", workingDirectory: "/shared")

    static func worker(formats: [String]) -> WorkerInfo {
        WorkerInfo(
            name: "w:1", host: "h", pid: 1, concurrency: 2, processors: ["resize": 1], formats: formats,
            capabilities: Array(Capabilities.honouredFeatures), version: "1", startedAt: .now())
    }

    @Test("Given --format avif, then the job requires format:avif; jpeg, png, webp and no format require nothing")
    func avifIsRequired() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(Self.worker(formats: ["jpeg", "png", "webp", "avif"]), ttl: .seconds(60))
        var requests = ["avif", "jpg", "png", "webp"].map { format in
            var request = JobRequest(source: "a.jpg")
            request.format = format
            return request
        }
        requests.append(JobRequest(source: "b.jpg"))
        let prepared = try await FleetClient(queue: queue).prepare(requests, defaults: Self.defaults)
        #expect(prepared.jobs.map(\.requires) == [["format:avif"], nil, nil, nil, nil])
    }

    @Test("Given only a worker that writes no AVIF, then an AVIF job is refused with enqueue.unoffered")
    func unofferedFormat() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(Self.worker(formats: ["jpeg", "png", "webp"]), ttl: .seconds(60))
        var request = JobRequest(source: "a.jpg")
        request.format = "avif"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).prepare([request], defaults: Self.defaults)
        }
        #expect(refusal?.problems.first?.code == "enqueue.unoffered")
    }

    @Test("A worker offers format:<name> for each format it writes")
    func offers() {
        let offers = Self.worker(formats: ["jpeg", "avif"]).offers
        #expect(offers.contains("format:avif") && offers.contains("format:jpeg") && offers.contains("processor:resize"))
        #expect(Capabilities.formatRequirements("avif") == ["format:avif"])
        #expect(Capabilities.formatRequirements("tpix") == ["format:tpix"])
        #expect(Capabilities.formatRequirements("jpeg").isEmpty && Capabilities.formatRequirements(nil).isEmpty)
    }
}
