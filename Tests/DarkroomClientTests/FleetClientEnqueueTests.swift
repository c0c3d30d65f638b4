import DarkroomChains
import DarkroomClient
import DarkroomQueue
import DarkroomSchema
import Testing

@Suite("FleetClient.enqueue: requests become canonical jobs, or nothing is sent")
struct FleetClientEnqueueTests {
    static let defaults = EnqueueDefaults(
        chain: " downsample( 400x400 ) |> blur(radius: 2.50)", format: "jpg",
        batch: "b1", workingDirectory: "/shared")

    @Test("Given loosely spelled chains and relative paths, when enqueued, then the queue holds canonical, absolute jobs")
    func enqueueCanonicalises() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        let requests = [
            JobRequest(source: "in/../in/cat.jpg"),
            JobRequest(source: "https://h/dog.png", chain: "resize(300x200)", format: "webp", id: "dog"),
        ]

        let receipt = try await client.enqueue(requests, defaults: Self.defaults)

        #expect(receipt.added == 2)
        #expect(receipt.skipped == 0)
        #expect(receipt.notes.isEmpty)
        #expect(receipt.jobs.map(\.chain) == ["downsample(400x400)|>blur(2.5)", "resize(300x200, mode: fit, anchor: center)"])
        #expect(receipt.jobs.map(\.source) == ["/shared/in/cat.jpg", "https://h/dog.png"])
        #expect(receipt.jobs.map(\.format) == ["jpeg", "webp"])
        #expect(receipt.jobs.map(\.batch) == ["b1", "b1"])
        #expect(receipt.jobs[1].id.rawValue == "dog")
        #expect(try await queue.batchProgress("b1") == BatchProgress(total: 2))
        let sent = try await queue.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job)
        #expect(sent == receipt.jobs)
    }

    @Test("Given two jobs that would write one output path under --name, when enqueued, then nothing is sent and both are named")
    func outputNameClashSendsNothing() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        var defaults = Self.defaults
        defaults.output = "out"
        defaults.name = "{stem}.{ext}"
        await #expect {
            try await client.enqueue([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.jpg")], defaults: defaults)
        } throws: { error in
            guard let refusal = error as? EnqueueRefusal, let problem = refusal.problems.first else { return false }
            return problem.message.contains("name.collision") && problem.message.contains("/shared/a/cat.jpg")
                && problem.message.contains("/shared/b/cat.jpg") && problem.message.contains("/shared/out/cat.jpg")
        }
        #expect(try await queue.batchProgress("b1") == nil)
        // Under the default template the same request is settled: the later job is renamed.
        defaults.name = nil
        let receipt = try await client.enqueue([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.jpg")], defaults: defaults)
        #expect(receipt.jobs.map(\.name) == [nil, "{stem}-{chain}.{ext}"])
    }

    @Test("Given a job id the queue already knows, when enqueued again, then it is skipped")
    func enqueueAgainIsSkipped() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        let request = JobRequest(source: "a.jpg", id: "a")
        _ = try await client.enqueue([request], defaults: Self.defaults)

        let again = try await client.enqueue([request, JobRequest(source: "b.jpg", id: "b")], defaults: Self.defaults)

        #expect(again.added == 1)
        #expect(again.skipped == 1)
        #expect(try await queue.batchProgress("b1") == BatchProgress(total: 2))
    }

    @Test("Given a job that finished, when the same request is enqueued again, then its batch reports its outcome; another batch names the batch that has it")
    func enqueueAgainAfterItFinished() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        var defaults = Self.defaults
        defaults.idFromSource = true
        let request = JobRequest(source: "a.jpg")
        let first = try await client.enqueue([request], defaults: defaults)
        let delivery = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        #expect(
            try await queue.acknowledge(delivery, outcome: .succeeded(JobResult(output: "/c/a", format: "jpeg", width: 1, height: 1, bytes: 1, cache: .miss))))

        let again = try await client.enqueue([request], defaults: defaults)

        #expect(again.jobs.map(\.id) == first.jobs.map(\.id))
        #expect(again.added == 0)
        #expect(again.skipped == 1)
        #expect(again.knownElsewhere.isEmpty)
        let waited = try #require(try await client.wait(for: "b1", timeout: .seconds(5)))
        #expect(waited.progress == BatchProgress(total: 1, succeeded: 1))

        defaults.batch = "b2"
        let elsewhere = try await client.enqueue([request], defaults: defaults)
        #expect(elsewhere.added == 0)
        #expect(elsewhere.knownElsewhere == [EnqueueReport.Elsewhere(batch: "b1", count: 1)])
        #expect(try await queue.batchProgress("b2") == nil)
    }

    @Test("Given a chain naming an unknown processor, when enqueued, then it is refused with a caret under its column and nothing is sent")
    func badChainIsRefused() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        var defaults = Self.defaults
        defaults.chain = "downsample(10x10)|>blurr(2)"

        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await client.enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        }

        let problems = try #require(refusal).problems
        #expect(problems.count == 1)
        #expect(problems.first?.location == "-p")
        #expect(problems.first?.message.hasPrefix("bad chain [chain.unknown-processor]: unknown processor 'blurr'") == true)
        // `blurr` starts at column 20: the caret sits under it.
        #expect(problems.first?.detail == ["    downsample(10x10)|>blurr(2)", "    " + String(repeating: " ", count: 19) + "^"])
        #expect(try await queue.batchProgress("b1") == nil)
    }

    @Test("Given one bad line among good ones, when enqueued, then the line is named and no job is sent")
    func badLineRefusesAll() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        let requests = [JobRequest(line: 1, source: "a.jpg"), JobRequest(line: 2, source: "b.jpg", chain: "blur(-3)")]

        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await client.enqueue(requests, defaults: Self.defaults, listName: "jobs.txt")
        }

        let problem = try #require(refusal?.problems.first)
        #expect(problem.location == "jobs.txt:2")
        #expect(problem.message.hasPrefix("bad chain [chain.invalid-argument]"))
        #expect(problem.detail.last == "    " + String(repeating: " ", count: 5) + "^")
        #expect(try await queue.batchProgress("b1") == nil)
    }

    @Test("Given a live worker offering a processor this client lacks, when a chain names it, then it is kept with a note")
    func processorOfferedByWorkers() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        try await queue.heartbeat(
            WorkerInfo(
                name: "w1:7", host: "h", pid: 7, concurrency: 2, processors: ["sepia": 2],
                version: "0.1.0", startedAt: .now()), ttl: .seconds(60))
        var defaults = Self.defaults
        defaults.chain = "sepia( 0.50 )|>blur(1)"

        let prepared = try await client.prepare([JobRequest(source: "a.jpg")], defaults: defaults)
        let added = try await client.enqueue(prepared)

        #expect(added == 1)
        #expect(prepared.jobs.map(\.chain) == ["sepia(0.5)|>blur(1)"])
        #expect(prepared.notes.count == 1)
        #expect(prepared.notes.first?.contains("w1:7 v2") == true)
    }

    @Test("Given a live worker writing a plugin's format this client lacks, when jobs ask for it, then it is accepted with a note; an unknown one is refused")
    func formatOfferedByWorkers() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        try await queue.heartbeat(
            WorkerInfo(
                name: "w1:7", host: "h", pid: 7, concurrency: 2, processors: ["blur": 1], formats: ["jpeg", "png", "webp", "tpix"],
                version: "0.1.0", startedAt: .now()), ttl: .seconds(60))
        var defaults = Self.defaults
        defaults.chain = "blur(1)"
        defaults.format = "TPIX"

        let prepared = try await client.prepare([JobRequest(source: "a.jpg"), JobRequest(source: "b.jpg", format: "jpg")], defaults: defaults)
        #expect(prepared.jobs.map(\.format) == ["tpix", "jpeg"])
        #expect(prepared.notes == ["note: format 'tpix' is not written by this darkroom; accepted because live workers write it (w1:7)"])

        defaults.format = "tpx"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await client.prepare([JobRequest(source: "a.jpg")], defaults: defaults)
        }
        #expect(refusal?.problems.first?.message == "unknown format 'tpx'; use jpeg, png, webp, avif or tpix")
    }

    @Test(
        "Given a live worker describing a processor this client lacks, when chains name it, then defaults are filled in and a bad argument is refused with a caret under it"
    )
    func processorDescribedByWorkers() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        let sepia = ProcessorSchema(
            name: "sepia", version: 2, summary: "warm tones", module: .init(name: "acme", version: "1.2.0"),
            parameters: [
                .init(name: "amount", kind: .number(min: 0, max: 1)),
                .init(name: "tone", kind: .choice(["warm", "cold"]), defaultText: "warm"),
            ])
        try await queue.heartbeat(
            WorkerInfo(
                name: "w1:7", host: "h", pid: 7, concurrency: 2, processors: ["sepia": 2], schemas: [sepia],
                version: "0.2.0", startedAt: .now()), ttl: .seconds(60))
        var defaults = Self.defaults
        defaults.chain = "sepia( 0.50 )|>blur(1)"

        let prepared = try await client.prepare([JobRequest(source: "a.jpg")], defaults: defaults)
        defaults.chain = "blur(1) |> sepia(0.5, tone: cols)"
        let refusal = await #expect(throws: EnqueueRefusal.self) {
            _ = try await client.enqueue([JobRequest(source: "a.jpg")], defaults: defaults)
        }

        #expect(prepared.jobs.map(\.chain) == ["sepia(0.5, tone: warm)|>blur(1)"])
        #expect(prepared.notes.first?.contains("its arguments were checked against their schema") == true)
        let problem = try #require(refusal?.problems.first)
        #expect(
            problem.message
                == "bad chain [chain.invalid-argument]: sepia: tone must be one of warm, cold (got 'cols') at column 29 — did you mean 'cold'?")
        #expect(problem.detail == ["    blur(1) |> sepia(0.5, tone: cols)", "    " + String(repeating: " ", count: 28) + "^"])
        #expect(try await queue.batchProgress("b1") == nil)
    }
}
