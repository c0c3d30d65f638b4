import DarkroomQueue
import Foundation
import Testing

@Suite("darkroom run: embedded queue and worker, as a real process")
struct RunCommandTests {
    /// `in/a.jpg` (120×80) and `in/b.png` (80×120) under `dir`.
    static func writeLandscapeAndPortrait(in dir: String) throws {
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.jpeg, width: 120, height: 80), to: "\(dir)/in/a.jpg")
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.png, width: 80, height: 120), to: "\(dir)/in/b.png")
    }

    @Test("Given good sources, every result is written under --out with the output extension and the run exits 0")
    func successWritesEveryResult() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try Self.writeLandscapeAndPortrait(in: dir)

        let run = try await WorkerCLITestKit.run(
            [
                "run", "in/a.jpg", "in/b.png", "-p", "downsample(40x40)", "--out", "thumbs",
                "--format", "webp",
            ], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/thumbs").sorted() == ["a.webp", "b.webp"])
        let a = try WorkerCLITestKit.decode("\(dir)/thumbs/a.webp").bitmap
        let b = try WorkerCLITestKit.decode("\(dir)/thumbs/b.webp").bitmap
        #expect(a.width == 40 && a.height == 27)
        #expect(b.width == 27 && b.height == 40)
        #expect(run.output.hasPrefix("run: 2 succeeded of 2 in "))
    }

    @Test("With --cache, a second run over the same sources says every result came from the cache")
    func secondRunReportsCacheHits() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try Self.writeLandscapeAndPortrait(in: dir)
        let arguments = ["run", "in/a.jpg", "in/b.png", "-p", "downsample(40x40)", "--out", "thumbs", "--cache", "cache"]

        let first = try await WorkerCLITestKit.run(arguments, in: dir)
        #expect(first.status == 0, "stderr: \(first.error)")
        #expect(!first.output.contains("from the cache"), "\(first.output)")
        let second = try await WorkerCLITestKit.run(arguments, in: dir)
        #expect(second.status == 0, "stderr: \(second.error)")
        #expect(second.output.hasPrefix("run: 2 succeeded of 2 in "))
        #expect(second.output.contains(", 2 from the cache → "), "\(second.output)")
    }

    @Test("A failing source makes the run exit 1, names the source and its error code, and the others are still written")
    func failingSourceExitsOne() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(), to: "\(dir)/good.jpg")
        try WorkerCLITestKit.write(Array("definitely not a picture".utf8), to: "\(dir)/broken.jpg")

        let run = try await WorkerCLITestKit.run(
            [
                "run", "good.jpg", "broken.jpg", "missing.jpg", "-p", "downsample(40x40)",
                "--out", "out",
            ], in: dir)
        #expect(run.status == 1)
        #expect(run.error.contains("\(dir)/broken.jpg") && run.error.contains("[image.unknown-format]"))
        #expect(run.error.contains("\(dir)/missing.jpg") && run.error.contains("[source.not-found]"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out") == ["good.jpg"])
        #expect(run.output.hasPrefix("run: 1 succeeded, 2 failed of 3"))
    }

    @Test("--json prints one record per job with its status, result or error; the summary goes to standard error")
    func jsonRecords() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(), to: "\(dir)/good.jpg")
        try WorkerCLITestKit.write([0xFF, 0xD8, 0xFF], to: "\(dir)/cut.jpg")

        let run = try await WorkerCLITestKit.run(["run", "good.jpg", "cut.jpg", "-p", "downsample(30x30)", "--out", "out", "--json"], in: dir)
        #expect(run.status == 1)
        let records = try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2)
        let good = try #require(records.first { ($0["source"] as? String) == "\(dir)/good.jpg" })
        let result = try #require(good["result"] as? [String: Any])
        #expect(good["status"] as? String == "succeeded")
        #expect(result["output"] as? String == "\(dir)/out/good.jpg" && result["width"] as? Int == 30 && result["cache"] as? String == "miss")
        let cut = try #require(records.first { ($0["source"] as? String) == "\(dir)/cut.jpg" })
        #expect(cut["status"] as? String == "failed")
        #expect(((cut["error"] as? [String: Any])?["code"] as? String)?.hasPrefix("image.") == true)
        #expect(run.error.contains("run: 1 succeeded, 1 failed of 2"))
    }

    @Test("--from reads bare sources and JSON lines with their own chain; of two sources with one base name the later in the list gets {stem}-{chain}.{ext}")
    func fromFileAndNameCollision() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(tint: 20), to: "\(dir)/x/cat.jpg")
        // Smaller, so it starts second (largest first): the names do not depend on that.
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(width: 60, height: 40, tint: 220), to: "\(dir)/y/cat.jpg")
        let list = """
            # two cats
            x/cat.jpg
            {"source": "y/cat.jpg", "chain": "downsample(20x20)", "id": "second-cat"}
            """
        try list.write(toFile: "\(dir)/list.txt", atomically: true, encoding: .utf8)

        let run = try await WorkerCLITestKit.run(
            [
                "run", "--from", "list.txt", "-p", "downsample(40x40)", "--out", "out",
                "--concurrency", "1",
            ], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        let second = "cat-\(ChainDigest.of("downsample(20x20)")).jpg"
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out")) == ["cat.jpg", second])
        let widths = try ["cat.jpg", second].map { try WorkerCLITestKit.decode("\(dir)/out/\($0)").bitmap.width }
        // The first line keeps the plain name; the second is named by its chain.
        #expect(widths == [40, 20])
    }

    @Test("Bad usage exits 2 and runs nothing: a bad chain, no --out, no sources")
    func usageErrors() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(), to: "\(dir)/a.jpg")

        let badChain = try await WorkerCLITestKit.run(["run", "a.jpg", "-p", "blurr(2)", "--out", "out"], in: dir)
        #expect(badChain.status == 2)
        #expect(badChain.error.contains("unknown processor 'blurr'"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out"))
        let noOut = try await WorkerCLITestKit.run(["run", "a.jpg", "-p", "blur(2)"], in: dir)
        #expect(noOut.status == 2 && noOut.error.contains("--out"))
        let nothing = try await WorkerCLITestKit.run(["run", "-p", "blur(2)", "--out", "out"], in: dir)
        #expect(nothing.status == 2)
        // A bucket is not a directory: without an allowed bucket it is refused, rather than writing
        // under a local directory "s3:".
        let bucket = try await WorkerCLITestKit.run(["run", "a.jpg", "-p", "blur(2)", "--out", "s3://thumbs/x/"], in: dir)
        #expect(bucket.status == 2 && bucket.error.contains("--allow-bucket"), "\(bucket.error)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/s3:"))
        let process = try await WorkerCLITestKit.run(["process", "a.jpg", "-p", "blur(2)", "-o", "s3://thumbs/a.jpg"], in: dir)
        #expect(process.status == 2 && process.error.contains("--allow-bucket"), "\(process.error)")
        let url = try await WorkerCLITestKit.run(["process", "a.jpg", "-p", "blur(2)", "--out", "https://example.com/x/"], in: dir)
        #expect(url.status == 2 && url.error.contains("not another URL"), "\(url.error)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/s3:") && !FileManager.default.fileExists(atPath: "\(dir)/https:"))
    }

    @Test("--name names every output; a clash under it refuses the run before any work, naming both sources and the path")
    func nameTemplate() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(tint: 20), to: "\(dir)/x/cat.jpg")
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(tint: 220), to: "\(dir)/y/cat.jpg")

        let named = try await WorkerCLITestKit.run(
            ["run", "x/cat.jpg", "-p", "downsample(20x20)", "--format", "png", "--name", "thumb-{stem}.{ext}", "--out", "named"], in: dir)
        #expect(named.status == 0, "stderr: \(named.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/named") == ["thumb-cat.png"])

        let clash = try await WorkerCLITestKit.run(
            ["run", "x/cat.jpg", "y/cat.jpg", "-p", "downsample(20x20)", "--name", "{stem}.{ext}", "--out", "clash"], in: dir)
        #expect(clash.status == 2)
        #expect(clash.error.contains("name.collision"))
        #expect(clash.error.contains("\(dir)/x/cat.jpg") && clash.error.contains("\(dir)/y/cat.jpg"))
        #expect(clash.error.contains("\(dir)/clash/cat.{ext}"))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/clash")) ?? []).isEmpty)
    }
}
