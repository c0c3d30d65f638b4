import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

@Suite("Job records with renditions")
struct JobRenditionTests {
    static func job(_ renditions: [JobRendition]?, chain: String = Job.renditionsChain, name: String? = nil) -> Job {
        Job(
            id: JobID(rawValue: "j1")!, batch: "b", source: "/in/cat.jpg", chain: chain, format: "webp", name: name,
            requires: ["renditions"], renditions: renditions)
    }

    static let pair = [
        JobRendition(name: "large", chain: "downsample(2048x2048, mode: fit)", format: "webp", quality: 80),
        JobRendition(name: "thumb_1", chain: ""),
    ]

    @Test("A job with renditions round-trips through JSON, and the hand-written record is JSONEncoder's byte for byte")
    func roundTrip() throws {
        let job = Self.job(Self.pair)
        let data = try job.jsonData()
        #expect(JobJSONWriter.bytes(job) == [UInt8](data))
        guard case .job(let decoded) = Job.decode(data) else {
            Issue.record("did not decode: \(String(decoding: data, as: UTF8.self))")
            return
        }
        #expect(decoded == job)
        #expect(
            String(decoding: data, as: UTF8.self).contains(
                #""renditions":[{"chain":"downsample(2048x2048, mode: fit)","format":"webp","name":"large","quality":80},{"chain":"","name":"thumb_1"}]"#))
    }

    @Test("A lastError naming the renditions written is written by hand as JSONEncoder writes it")
    func lastErrorWritten() throws {
        var job = Self.job(Self.pair)
        job.lastError = JobError(code: "source.timeout", message: "slow", written: ["large"])
        #expect(JobJSONWriter.bytes(job) == [UInt8](try job.jsonData()))
        guard case .job(let decoded) = Job.decode(try job.jsonData()) else {
            Issue.record("did not decode")
            return
        }
        #expect(decoded.lastError?.written == ["large"])
    }

    @Test(
        "The record's rules: names, uniqueness, count, chain marker, {name} only with renditions",
        arguments: [
            (Self.job([JobRendition(name: "a b", chain: "")]), "name"),
            (Self.job([JobRendition(name: "", chain: "")]), "name"),
            (Self.job([JobRendition(name: String(repeating: "x", count: 65), chain: "")]), "name"),
            (Self.job([JobRendition(name: "a", chain: ""), JobRendition(name: "a", chain: "blur(2)")]), "twice"),
            (Self.job([]), "absent rather than empty"),
            (Self.job((0...64).map { JobRendition(name: "r\($0)", chain: "") }), "at most 64"),
            (Self.job([JobRendition(name: "a", chain: "", quality: 0)]), "quality"),
            (Self.job([JobRendition(name: "a", chain: "", format: "")]), "format"),
            (Self.job(Self.pair, chain: "downsample(10x10)"), "'chain' must be 'renditions'"),
            (Self.job(nil, chain: "blur(2)", name: "{stem}-{name}.{ext}"), "{name}"),
        ])
    func problems(job: Job, expected: String) throws {
        let problem = try #require(job.problem)
        #expect(problem.contains(expected), "\(problem)")
        #expect(Job.decode(try job.jsonData()) != .job(job))
    }

    @Test("{name} is a template field, and a literal {{name}} is fine without renditions")
    func nameField() throws {
        #expect(Self.job(nil, chain: "blur(2)", name: "{stem}-{{name}}.{ext}").problem == nil)
        var fields = OutputNameFields(stem: "cat", id: "j1", batch: "b", chain: "abc", ext: "webp")
        fields.name = "small"
        #expect(try OutputNameTemplate.renditionsDefault.render(fields) == "cat-small.webp")
        #expect(try OutputNameTemplate.renditionsFallback.render(fields) == "j1-small.webp")
    }

    @Test("Capabilities: a job with renditions requires `renditions`, which this build's workers honour")
    func capability() {
        #expect(Capabilities.features(name: nil, renditions: true) == ["renditions"])
        #expect(Capabilities.honouredFeatures.contains(Capabilities.renditions))
    }

    @Test("Events with rendition results and a failure's written renditions: the hand-written record is JSONEncoder's, and reads back")
    func events() throws {
        let result = JobResult(
            output: "/out/cat-large.webp", format: "webp", width: 400, height: 300, bytes: 1234, cache: .miss, sha256: "ab",
            ms: StageTimings(fetch: 1, decode: 2),
            renditions: [
                RenditionResult(name: "large", output: "/out/cat-large.webp", format: "webp", width: 400, height: 300, bytes: 1234, cache: .miss, sha256: "ab"),
                RenditionResult(name: "small", output: nil, format: "png", width: 40, height: 30, bytes: 99, cache: .disk),
            ])
        let succeeded = JobEvent.succeeded(job: JobID(rawValue: "j1")!, batch: "b", worker: "w", attempt: 1, result: result, id: "e1")
        let failed = JobEvent.failed(
            job: JobID(rawValue: "j1")!, batch: "b", worker: "w", attempt: 1,
            error: JobError(code: "output.too-large", message: "big", written: ["small"]), willRetry: false, id: "e2")
        for event in [succeeded, failed] {
            let data = try event.jsonData()
            #expect(EventJSONWriter.bytes(event) == [UInt8](data), "\(String(decoding: data, as: UTF8.self))")
            #expect(JobEvent.decode(data) == .event(event))
        }
    }

    @Test("The job record docs/renditions.md shows is one this build writes, byte for byte")
    func documentedRecord() throws {
        let example = try #require(try DocumentedRecordTests.jsonExamples(in: "docs/renditions.md").first)
        guard case .job(let job) = Job.decode(Data(example.utf8)) else {
            Issue.record("not a job record: \(example)")
            return
        }
        #expect(job.renditions?.count == 2)
        #expect(String(decoding: JobJSONWriter.bytes(job), as: UTF8.self) == example)
    }
}
