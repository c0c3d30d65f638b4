import DarkroomChains
import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

@testable import DarkroomClient

@Suite("Enqueue planning: chains and job records are checked before anything is sent")
struct EnqueuePlanningTests {
    static func worker(_ name: String, offers processors: [String: Int]) -> WorkerInfo {
        WorkerInfo(name: name, host: "h", pid: 1, concurrency: 2, processors: processors, version: "0.1.0", startedAt: .now())
    }

    /// Counts how often the validator asked for the live workers.
    final class Asked: Sendable {
        let count = Locked(0)
        var value: Int { count.withLock { $0 } }
    }

    static func validator(workers: [WorkerInfo] = [], asked: Asked? = nil) -> ChainValidator {
        ChainValidator(registry: StandardProcessorSpecs.catalog) {
            asked?.count.withLock { $0 += 1 }
            return workers
        }
    }

    static func defaults(chain: String? = "blur(2)") -> EnqueueDefaults {
        EnqueueDefaults(chain: chain, batch: "b1", workingDirectory: "/work/dir")
    }

    @Test("A chain of built-in processors is canonicalised without asking the workers")
    func canonicalBuiltIns() async throws {
        let asked = Asked()
        var validator = Self.validator(asked: asked)
        #expect(try await validator.canonicalize(" downsample( 400x400 ) |> blur(radius: 2.50)") == "downsample(400x400)|>blur(2.5)")
        #expect(try await validator.canonicalize("resize(300x200)") == "resize(300x200, mode: fit, anchor: center)")
        #expect(asked.value == 0)
        #expect(validator.notes.isEmpty)
    }

    @Test("A processor only live workers offer is kept as written, with one note naming the workers")
    func remoteProcessor() async throws {
        let asked = Asked()
        var validator = Self.validator(workers: [Self.worker("w1:10", offers: ["sepia": 3, "blur": 1])], asked: asked)
        let text = "downsample(400x400) |> sepia( 0.50, tone: warm+soft) |> blur(radius: 1)"
        #expect(try await validator.canonicalize(text) == "downsample(400x400)|>sepia(0.5, tone: warm+soft)|>blur(1)")
        #expect(try await validator.canonicalize("sepia") == "sepia")
        #expect(asked.value == 1)
        #expect(validator.notes.count == 1)
        #expect(validator.notes.first?.contains("'sepia' is not built into this darkroom") == true)
        #expect(validator.notes.first?.contains("w1:10 v3") == true)
    }

    @Test("In a chain with an offered processor, an error in a built-in one still points at the right column")
    func mixedChainColumns() async throws {
        var validator = Self.validator(workers: [Self.worker("w1", offers: ["sepia": 1])])
        let text = "sepia(1) |> blur(-3)"
        do {
            _ = try await validator.canonicalize(text)
            Issue.record("a negative blur radius was accepted")
        } catch let error as ChainError {
            #expect(error.code == .invalidArgument)
            #expect(error.processor == "blur")
            #expect(Array(text.unicodeScalars)[error.column - 1] == "-")
        }
    }

    @Test("A processor nobody offers is an unknown-processor error with a suggestion")
    func unknownProcessor() async throws {
        var validator = Self.validator(workers: [Self.worker("w1", offers: ["sepia": 1])])
        do {
            _ = try await validator.canonicalize("downsample(10x10)|>blurr(2)")
            Issue.record("an unknown processor was accepted")
        } catch let error as ChainError {
            #expect(error.code == .unknownProcessor)
            #expect(error.column == 20)
            #expect(error.suggestion == "blur")
        }
    }

    @Test("Jobs take the flags, lines override them, paths become absolute and formats canonical")
    func jobsFromRequests() async throws {
        var defaults = Self.defaults()
        defaults.format = "jpg"
        defaults.quality = 80
        defaults.priority = .low
        defaults.output = "results"
        defaults.delay = .seconds(60)
        let now = try #require(Timestamp(iso8601: "2025-03-01T12:00:00Z"))
        var validator = Self.validator()
        let requests = [
            JobRequest(source: "a.jpg"),
            JobRequest(
                line: 2, source: "https://h/b.png", chain: "downsample(10x10)", format: "webp", quality: 50,
                priority: .high, id: "key-b", output: "/abs/out"),
        ]
        guard
            case .jobs(let jobs) = try await EnqueuePlanner.plan(
                requests, defaults: defaults, validator: &validator,
                listName: "l", now: now)
        else {
            Issue.record("valid requests were refused")
            return
        }
        #expect(jobs.count == 2)
        #expect(jobs[0].source == "/work/dir/a.jpg")
        #expect(jobs[0].chain == "blur(2)")
        #expect(jobs[0].format == "jpeg")
        #expect(jobs[0].quality == 80)
        #expect(jobs[0].priority == .low)
        #expect(jobs[0].output == "/work/dir/results")
        #expect(jobs[0].notBefore == now.adding(.seconds(60)))
        #expect(jobs[0].batch == "b1")
        #expect(JobLookup.creationTime(of: jobs[0].id) != nil)
        #expect(
            jobs[1]
                == Job(
                    id: JobID(rawValue: "key-b")!, batch: "b1", source: "https://h/b.png", chain: "downsample(10x10)",
                    format: "webp", quality: 50, priority: .high, output: "/abs/out", enqueuedAt: now,
                    notBefore: now.adding(.seconds(60))))
    }

    @Test("--id-from-source derives the id from the absolute source and what shapes the output; a long source is hashed")
    func idFromSource() async throws {
        var defaults = Self.defaults()
        defaults.idFromSource = true
        var validator = Self.validator()
        let requests = [
            JobRequest(source: "x/a.jpg"),
            JobRequest(source: "x/a.jpg", chain: "blur(3)"),
            JobRequest(source: "x/a.jpg", format: "webp", quality: 80),
            JobRequest(source: "x/a.jpg", priority: .high),
            JobRequest(source: "x/a.jpg", id: "mine"),
            JobRequest(line: 7, source: "https://h/" + String(repeating: "a", count: 300)),
        ]
        guard
            case .jobs(let jobs) = try await EnqueuePlanner.plan(
                requests, defaults: defaults, validator: &validator, listName: "list")
        else {
            Issue.record("a valid request was refused")
            return
        }
        // The documented scheme, worked by hand: FNV-1a of "blur(2)" and five empty fields joined by NUL.
        #expect(jobs[0].id.rawValue == "/work/dir/x/a.jpg#a0807d4a506f")
        #expect(
            jobs[0].id.rawValue
                == DerivedIDs.jobID(
                    source: "/work/dir/x/a.jpg", chain: "blur(2)", format: nil, quality: nil, firstFrameOnly: false,
                    output: nil, name: nil))
        // Another chain or format is another job; the priority does not shape the output.
        #expect(Set(jobs.prefix(3).map(\.id)).count == 3)
        #expect(jobs[1].id.rawValue.hasPrefix("/work/dir/x/a.jpg#"))
        #expect(jobs[3].id == jobs[0].id)
        #expect(jobs[4].id.rawValue == "mine")
        #expect(jobs[5].id.rawValue == "src-90d66698ae5c1ef3#a0807d4a506f")
        #expect(jobs.allSatisfy { $0.id.rawValue.utf8.count <= 200 })
    }

    @Test("The batch derived from given ids is the same for the same ids in any order, and differs for others")
    func derivedBatch() {
        let ids = ["b", "a", "a"].map { JobID(rawValue: $0)! }
        #expect(DerivedIDs.batch(for: ids) == DerivedIDs.batch(for: ids.reversed()))
        #expect(DerivedIDs.batch(for: ids) == "ids-" + DerivedIDs.hex16("a\nb"))
        #expect(DerivedIDs.batch(for: ids) != DerivedIDs.batch(for: [JobID(rawValue: "a")!]))
        #expect(DerivedIDs.hex16("") == "cbf29ce484222325")
    }

    @Test("A bad -p chain is reported once with a caret under its column; bad lines each by number")
    func problems() async throws {
        var validator = Self.validator()
        let requests = (1...3).map { (number: Int) in JobRequest(line: number, source: "s\(number).jpg") }
        guard
            case .problems(let flagProblems) = try await EnqueuePlanner.plan(
                requests, defaults: Self.defaults(chain: "blur(0)"),
                validator: &validator, listName: "l")
        else {
            Issue.record("a bad chain was accepted")
            return
        }
        #expect(flagProblems.count == 1)
        #expect(
            flagProblems[0].lines == [
                "-p: bad chain [chain.invalid-argument]: blur: radius must be > 0 (got 0) at column 6",
                "    blur(0)", "         ^",
            ])
        let mixed = [
            JobRequest(line: 1, source: "a.jpg", chain: "nope(1)"), JobRequest(line: 2, source: "b.jpg"),
            JobRequest(line: 3, source: "c.jpg", chain: "blur(1)", format: "bmp"),
        ]
        guard
            case .problems(let lineProblems) = try await EnqueuePlanner.plan(
                mixed, defaults: Self.defaults(chain: nil),
                validator: &validator, listName: "l")
        else {
            Issue.record("bad lines were accepted")
            return
        }
        #expect(lineProblems.map(\.location) == ["l:1", "l:2", "l:3"])
        #expect(lineProblems[0].message.hasPrefix("bad chain [chain.unknown-processor]: unknown processor 'nope'"))
        #expect(lineProblems[1].message == "no chain: pass -p CHAIN, or give this line a \"chain\" key")
        #expect(lineProblems[2].message == "unknown format 'bmp'; use jpeg, png, webp or avif")
    }
}
