import DarkroomClient
import DarkroomQueue
import Testing

@Suite("Enqueue: an s3:// output is kept as written and requires output:s3 and its bucket")
struct EnqueueObjectStorageOutputTests {
    static let defaults = EnqueueDefaults(chain: "resize(40x40)", output: "s3://thumbs/2026/", batch: "b1", workingDirectory: "/shared")

    static func worker(s3: Bool, outputRoots: [String] = ["/out"]) -> WorkerInfo {
        var worker = WorkerInfo(
            name: "w:1", host: "h", pid: 1, concurrency: 2, processors: ["resize": 1], formats: ["jpeg", "png", "webp"],
            capabilities: Array(Capabilities.honouredFeatures)
                + (s3 ? [Capabilities.s3Output, Capabilities.bucket(alias: "default", name: "thumbs"), "s3:media@originals"] : []),
            version: "1", startedAt: .now())
        worker.outputRoots = outputRoots
        return worker
    }

    @Test("Given --out s3://thumbs/2026/ and a line's own s3:// output, then each job keeps it and requires output:s3; a directory requires nothing")
    func requiresOutputS3() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(Self.worker(s3: true), ttl: .seconds(60))
        var own = JobRequest(source: "b.jpg")
        own.output = "s3://media@originals/x"
        var directory = JobRequest(source: "c.jpg")
        directory.output = "/out/c"
        let prepared = try await FleetClient(queue: queue).prepare([JobRequest(source: "a.jpg"), own, directory], defaults: Self.defaults)
        #expect(prepared.jobs.map(\.output) == ["s3://thumbs/2026/", "s3://media@originals/x", "/out/c"])
        #expect(prepared.jobs.map(\.requires) == [["output:s3", "s3:default@thumbs"], ["output:s3", "s3:media@originals"], nil])
    }

    @Test("Given only workers without S3, then an s3:// output is refused with enqueue.unoffered, not as a path outside the output roots")
    func unoffered() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(Self.worker(s3: false), ttl: .seconds(60))
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).prepare([JobRequest(source: "a.jpg")], defaults: Self.defaults)
        }
        #expect(refusal?.problems.map(\.code) == ["enqueue.unoffered"])
    }

    @Test("Given an output URL of another scheme, then the job is refused as invalid")
    func otherSchemes() async throws {
        var request = JobRequest(source: "a.jpg")
        request.output = "https://cdn.example.com/thumbs/"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: MemoryQueue()).prepare([request], defaults: Self.defaults)
        }
        #expect(refusal?.problems.first?.code == "enqueue.invalid-job")
        #expect(refusal?.problems.first?.message.contains("s3://") == true)
    }

    @Test("Capabilities name object-storage destinations by their scheme, in any case")
    func destinations() {
        #expect(Capabilities.outputRequirements("S3://b/p/") == ["output:s3", "s3:default@b"])
        #expect(Capabilities.outputRequirements("/out/s3://b").isEmpty)
        #expect(Capabilities.outputRequirements("s3://").isEmpty && Capabilities.outputRequirements(nil).isEmpty)
        #expect(PathResolver.output("s3://b/p", from: "/w") == "s3://b/p")
        #expect(PathResolver.output("out/p", from: "/w") == "/w/out/p")
    }

    @Test("Given live workers that allow other buckets only, then a job whose output bucket none allows is refused with enqueue.unoffered naming the bucket")
    func bucketNoWorkerAllows() async throws {
        let queue = MemoryQueue()
        try await queue.heartbeat(Self.worker(s3: true), ttl: .seconds(60))
        var request = JobRequest(source: "a.jpg")
        request.output = "s3://elsewhere/x/"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await FleetClient(queue: queue).prepare([request], defaults: Self.defaults)
        }
        #expect(refusal?.problems.map(\.code) == ["enqueue.unoffered"])
        #expect(refusal?.problems.first?.message.contains("s3:default@elsewhere") == true, "\(refusal?.problems.first?.message ?? "")")
    }
}
