import DarkroomClient
import DarkroomQueue
import Foundation
import Testing

@Suite("Enqueue: files no live worker would accept are refused")
struct EnqueuePathCheckTests {
    static func worker(_ name: String, fileRoots: [String]?, outputRoots: [String]?) -> WorkerInfo {
        WorkerInfo(
            name: name, host: "h", pid: 1, concurrency: 2, processors: ["resize": 1],
            capabilities: Capabilities.honouredFeatures.sorted(), fileRoots: fileRoots, outputRoots: outputRoots,
            version: "1.0", startedAt: .now())
    }

    static func enqueue(
        _ sources: [String], output: String? = nil, workers: [WorkerInfo], allowUnoffered: Bool = false
    ) async throws -> (MemoryQueue, Result<EnqueueReceipt, EnqueueRefusal>) {
        let queue = MemoryQueue()
        for worker in workers { try await queue.heartbeat(worker, ttl: .seconds(60)) }
        var defaults = EnqueueDefaults(chain: "resize(40x40)", output: output, batch: "b1", workingDirectory: "/")
        defaults.allowUnoffered = allowUnoffered
        do {
            return (queue, .success(try await FleetClient(queue: queue).enqueue(sources.map { JobRequest(source: $0) }, defaults: defaults)))
        } catch let refusal as EnqueueRefusal {
            return (queue, .failure(refusal))
        }
    }

    @Test("Given workers whose file roots are /volume/images, then a source elsewhere is refused naming the roots and the flag, and nothing is sent")
    func sourceOutsideEveryRoot() async throws {
        let workers = [Self.worker("w1", fileRoots: ["/volume/images"], outputRoots: ["/volume/out"])]
        let (queue, outcome) = try await Self.enqueue(["/volume/images/a.jpg", "/elsewhere-on-the-workers/b.jpg"], workers: workers)
        guard case .failure(let refusal) = outcome else {
            Issue.record("expected a refusal")
            return
        }
        #expect(refusal.problems.count == 1)
        #expect(refusal.problems.first?.location == "source '/elsewhere-on-the-workers/b.jpg'")
        #expect(refusal.problems.first?.message.contains("outside every worker's --allow-file-root (/volume/images)") == true)
        #expect(refusal.problems.first?.message.contains("--allow-unoffered") == true)
        #expect(try await queue.batchProgress("b1") == nil)
    }

    @Test("Given an --out outside every worker's output roots, then it is refused; inside one it is accepted")
    func outputOutsideEveryRoot() async throws {
        let workers = [Self.worker("w1", fileRoots: ["/"], outputRoots: ["/volume/out"])]
        let (_, refused) = try await Self.enqueue(["https://example.com/a.jpg"], output: "/tmp/elsewhere", workers: workers)
        guard case .failure(let refusal) = refused else {
            Issue.record("expected a refusal")
            return
        }
        #expect(refusal.problems.first?.message.contains("--allow-output-root (/volume/out)") == true)
        let (_, accepted) = try await Self.enqueue(["https://example.com/a.jpg"], output: "/volume/out/thumbs", workers: workers)
        #expect((try? accepted.get())?.added == 1)
    }

    @Test("Given a missing file or a directory in a directory this host sees, then each is refused; --allow-unoffered sends them")
    func missingFileAndDirectory() async throws {
        let directory = NSTemporaryDirectory() + "darkroom-pathcheck-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/folder", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/real.jpg", contents: Data([0xFF]))
        let sources = [directory + "/real.jpg", directory + "/missing.jpg", directory + "/folder"]
        let (_, refused) = try await Self.enqueue(sources, workers: [])
        guard case .failure(let refusal) = refused else {
            Issue.record("expected a refusal")
            return
        }
        #expect(refusal.problems.map(\.message).map { $0.prefix(20) } == ["no such file (checke", "is a directory, not "])
        let (_, forced) = try await Self.enqueue(sources, workers: [], allowUnoffered: true)
        #expect((try? forced.get())?.added == 3)
    }

    @Test("Given a worker that advertises no roots (older), or no live worker, then roots are not checked")
    func unknownRootsAcceptEverything() async throws {
        let older = [Self.worker("old", fileRoots: nil, outputRoots: nil), Self.worker("new", fileRoots: ["/volume"], outputRoots: ["/volume"])]
        let (_, withOlder) = try await Self.enqueue(["/nowhere-\(UUID().uuidString)/a.jpg"], output: "/out", workers: older)
        #expect((try? withOlder.get())?.added == 1)
        let (_, withNone) = try await Self.enqueue(["/nowhere-\(UUID().uuidString)/a.jpg"], output: "/out", workers: [])
        #expect((try? withNone.get())?.added == 1)
    }
}
