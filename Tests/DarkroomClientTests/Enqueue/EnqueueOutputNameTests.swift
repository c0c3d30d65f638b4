import DarkroomChains
import DarkroomQueue
import Testing

@testable import DarkroomClient

/// Output names are settled at enqueue, for one request at a time: no two jobs of it may write
/// one path, so names never depend on which job finishes first.
@Suite("Enqueue planning: output names settled per request")
struct EnqueueOutputNameTests {
    static let collision = OutputNameTemplate.collisionText

    static func plan(
        _ requests: [JobRequest], format: String? = "webp", name: String? = nil, output: String? = "/out"
    ) async throws -> EnqueuePlan {
        var validator = ChainValidator(registry: StandardProcessorSpecs.catalog) { [] }
        let defaults = EnqueueDefaults(
            chain: "blur(2)", format: format, output: output, batch: "b1", workingDirectory: "/in", name: name)
        return try await EnqueuePlanner.plan(requests, defaults: defaults, validator: &validator, listName: "jobs.txt")
    }

    static func jobs(_ plan: EnqueuePlan) throws -> [Job] {
        guard case .jobs(let jobs) = plan else {
            Issue.record("refused: \(plan)")
            return []
        }
        return jobs
    }

    static func problems(_ plan: EnqueuePlan) -> [EnqueueProblem] {
        guard case .problems(let problems) = plan else { return [] }
        return problems
    }

    @Test("Under the default template, a later job whose name is taken gets {stem}-{chain}.{ext}; the first keeps its name")
    func defaultRenamesTheLater() async throws {
        let jobs = try Self.jobs(
            try await Self.plan([
                JobRequest(line: 1, source: "a/cat.jpg"), JobRequest(line: 2, source: "b/cat.jpg"),
                JobRequest(line: 3, source: "a/cat.jpg", chain: "blur(3)"), JobRequest(line: 4, source: "dog.jpg"),
            ]))
        #expect(jobs.map(\.name) == [nil, Self.collision, Self.collision, nil])
    }

    @Test("Under the default template, a clash {stem}-{chain}.{ext} cannot settle refuses the request, naming both jobs and the path")
    func defaultRefusesWhatStillClashes() async throws {
        let problems = Self.problems(
            try await Self.plan([
                JobRequest(line: 1, source: "a/cat.jpg"), JobRequest(line: 2, source: "b/cat.jpg"), JobRequest(line: 3, source: "c/cat.jpg"),
            ]))
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.location == "jobs.txt:3")
        #expect(problem.message.contains("[name.collision]"))
        #expect(problem.message.contains("source '/in/c/cat.jpg' with chain 'blur(2)'"))
        #expect(problem.message.contains("source '/in/b/cat.jpg' with chain 'blur(2)'"))
        #expect(problem.message.contains("'/out/cat-\(ChainDigest.of("blur(2)")).webp'"))
    }

    @Test("Under an explicit template, any clash refuses the request, naming both jobs and the path")
    func explicitRefuses() async throws {
        let problems = Self.problems(
            try await Self.plan([JobRequest(line: 1, source: "a/cat.jpg"), JobRequest(line: 2, source: "b/cat.jpg")], name: "{stem}.{ext}"))
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.location == "jobs.txt:2")
        #expect(problem.message.contains("source '/in/b/cat.jpg'") && problem.message.contains("source '/in/a/cat.jpg'"))
        #expect(problem.message.contains("'/out/cat.webp'"))
        // The same with {chain}: two chains settle, one chain twice does not.
        let settled = try Self.jobs(
            try await Self.plan(
                [JobRequest(source: "cat.jpg"), JobRequest(source: "cat.jpg", chain: "blur(3)")], name: "{stem}-{chain}.{ext}"))
        #expect(settled.map(\.name) == ["{stem}-{chain}.{ext}", "{stem}-{chain}.{ext}"])
    }

    @Test("Explicit names are claimed first: a default job clashing with a later explicit one is the one renamed")
    func explicitClaimsFirst() async throws {
        let jobs = try Self.jobs(
            try await Self.plan([JobRequest(line: 1, source: "a/cat.jpg"), JobRequest(line: 2, source: "b/cat.jpg", name: "{stem}.{ext}")]))
        #expect(jobs.map(\.name) == [Self.collision, "{stem}.{ext}"])
    }

    @Test("Without --format the extension is unknown, so names that differ only in it clash; known different extensions do not")
    func unknownExtensions() async throws {
        let unknown = try Self.jobs(
            try await Self.plan([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.png")], format: nil))
        #expect(unknown.map(\.name) == [nil, Self.collision])
        let mixed = try Self.jobs(
            try await Self.plan([JobRequest(source: "a/cat.jpg", format: "png"), JobRequest(source: "b/cat.png")], format: nil))
        #expect(mixed.map(\.name) == [nil, Self.collision])
        let known = try Self.jobs(
            try await Self.plan([JobRequest(source: "a/cat.jpg", format: "png"), JobRequest(source: "b/cat.png", format: "webp")], format: nil))
        #expect(known.map(\.name) == [nil, nil])
        // Unknown and the same chain twice: still a clash after renaming, so refused.
        let refused = Self.problems(
            try await Self.plan([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.png"), JobRequest(source: "c/cat.gif")], format: nil))
        #expect(refused.first?.message.contains("cat-\(ChainDigest.of("blur(2)")).{ext}") == true)
    }

    @Test("Jobs that make the same thing share a name; jobs writing no file, or into other directories, never clash")
    func sameWorkAndOtherDirectories() async throws {
        let same = try Self.jobs(try await Self.plan([JobRequest(source: "cat.jpg"), JobRequest(source: "cat.jpg")], name: "{stem}.{ext}"))
        #expect(same.count == 2)
        let noOutput = try Self.jobs(try await Self.plan([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.jpg")], output: nil))
        #expect(noOutput.map(\.name) == [nil, nil])
        let apart = try Self.jobs(
            try await Self.plan([JobRequest(source: "a/cat.jpg"), JobRequest(source: "b/cat.jpg", output: "/other")], name: "{stem}.{ext}"))
        #expect(apart.count == 2)
    }

    @Test("A bad --name is refused once at --name; a bad line name at its line, with its code")
    func badTemplates() async throws {
        let flag = Self.problems(try await Self.plan([JobRequest(source: "a.jpg"), JobRequest(source: "b.jpg")], name: "{stem}"))
        #expect(flag.count == 1)
        #expect(flag.first?.location == "--name")
        #expect(flag.first?.message.contains("[name.no-extension]") == true)
        let line = Self.problems(try await Self.plan([JobRequest(line: 4, source: "a.jpg", name: "x/{ext}")]))
        #expect(line.first?.location == "jobs.txt:4")
        #expect(line.first?.message.contains("[name.not-a-name]") == true)
        #expect(line.first?.message.contains("not a path") == true)
    }
}
