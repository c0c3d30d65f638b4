import ArgumentParser
import DarkroomCodecs
import DarkroomQueue
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("darkroom process and run with --rendition")
struct ProcessRenditionsTests {
    @Test("--rendition reads NAME=CHAIN with format and quality options, and refuses what it cannot read")
    func parsing() throws {
        let parsed = try RenditionOptions.rendition(from: "large=resize(400x300, mode: fill)|>blur(2); format=webp ;quality=70")
        #expect(parsed == JobRendition(name: "large", chain: "resize(400x300, mode: fill)|>blur(2)", format: "webp", quality: 70))
        #expect(try RenditionOptions.rendition(from: "copy=") == JobRendition(name: "copy", chain: ""))
        for bad in ["noequals", "bad name=blur(2)", "a=blur(2);quality=0", "a=blur(2);size=3", "a=blur(2);format="] {
            #expect(throws: UsageFailure.self, "\(bad)") { try RenditionOptions.rendition(from: bad) }
        }
    }

    @Test("process --rendition writes every rendition of every input from one decode, named {stem}-{name}.{ext}")
    func processWritesRenditions() async throws {
        let workspace = try ProcessCommandTests.Workspace()
        defer { workspace.remove() }
        try workspace.image("a.jpg", .jpeg, width: 400, height: 300)
        try workspace.image("b.png", .png, width: 300, height: 400)
        try await ProcessCommandTests.run([
            workspace.path("a.jpg"), workspace.path("b.png"), "--out", workspace.path("out"),
            "--rendition", "large=downsample(200x200);format=webp", "--rendition", "small=downsample(40x40);format=png",
        ])
        let names = try FileManager.default.contentsOfDirectory(atPath: workspace.path("out")).sorted()
        #expect(names == ["a-large.webp", "a-small.png", "b-large.webp", "b-small.png"])
        let large = try workspace.decode("out/a-large.webp").bitmap
        let small = try workspace.decode("out/b-small.png").bitmap
        #expect(large.width == 200 && large.height == 150)
        #expect(small.width == 30 && small.height == 40)
    }

    @Test("process --rendition refuses -o, -p beside it, and a --name without {name}")
    func processUsage() async throws {
        let workspace = try ProcessCommandTests.Workspace()
        defer { workspace.remove() }
        try workspace.image("a.jpg", .jpeg)
        let a = workspace.path("a.jpg")
        let rendition = ["--rendition", "x=blur(1)", "--rendition", "y=blur(2)"]
        #expect(await ProcessCommandTests.exitCode([a, "-o", workspace.path("o.jpg")] + rendition) == 2)
        #expect(await ProcessCommandTests.exitCode([a, "--out", workspace.path("o"), "-p", "blur(1)"] + rendition) == 2)
        #expect(await ProcessCommandTests.exitCode([a, "--out", workspace.path("o"), "--name", "{stem}.{ext}"] + rendition) == 2)
    }

    @Test("process --rendition --json reports the source decoded once, as a single output does")
    func processJSONHasInput() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("process-renditions-json")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.jpeg, width: 120, height: 80), to: "\(dir)/a.jpg")
        let run = try await WorkerCLITestKit.run(
            ["process", "a.jpg", "--out", "out", "--json", "--rendition", "big=downsample(60x60)", "--rendition", "tiny=downsample(12x12)"],
            in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
        let input = try #require(record["input"] as? [String: Any], "\(run.output)")
        #expect(input["format"] as? String == "jpeg" && input["width"] as? Int == 120 && input["height"] as? Int == 80)
    }

    @Test("run --rendition goes through the queue and worker, and --json lists every rendition")
    func runWritesRenditions() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run-renditions")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.jpeg, width: 120, height: 80), to: "\(dir)/in/a.jpg")
        let run = try await WorkerCLITestKit.run(
            ["run", "in/a.jpg", "--out", "out", "--json", "--rendition", "big=downsample(60x60);format=webp", "--rendition", "tiny=downsample(12x12)"],
            in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted() == ["a-big.webp", "a-tiny.jpg"])
        #expect(run.output.contains(#""name":"big""#) && run.output.contains(#""name":"tiny""#), "\(run.output)")
    }
}

@Suite("darkroom get JOB NAME: one rendition's result")
struct GetRenditionTests {
    static let result = JobResult(
        output: "/out/cat-large.webp", format: "webp", width: 400, height: 300, bytes: 10, cache: .miss,
        renditions: [
            RenditionResult(name: "large", output: "/out/cat-large.webp", format: "webp", width: 400, height: 300, bytes: 10, cache: .miss),
            RenditionResult(name: "small", output: "/out/cat-small.png", format: "png", width: 40, height: 30, bytes: 5, cache: .disk),
        ])

    @Test("NAME picks the rendition's output; none picks the first; an unknown name lists the renditions")
    func picksRendition() throws {
        let job = JobID(rawValue: "j1")!
        let small = try ResultFetch.rendition("small", of: Self.result, job: job)
        #expect(small.output == "/out/cat-small.png" && small.width == 40 && small.bytes == 5 && small.format == "png")
        #expect(try ResultFetch.rendition(nil, of: Self.result, job: job) == Self.result)
        #expect(throws: ResultFetch.Failure(message: "job j1 has no rendition 'medium'; its renditions are large, small")) {
            try ResultFetch.rendition("medium", of: Self.result, job: job)
        }
    }
}
