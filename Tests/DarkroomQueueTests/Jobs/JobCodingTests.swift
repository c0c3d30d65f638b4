import DarkroomQueue
import Foundation
import Testing

@Suite("Job records are versioned JSON")
struct JobCodingTests {
    static let enqueuedAt = Timestamp(millisecondsSince1970: 1_750_000_000_123)

    static var fullJob: Job {
        Job(
            id: JobID(rawValue: "0197744c-d6fb-7000-8000-000000000001") ?? .make(), batch: "spring", source: "https://example.com/a.jpg",
            chain: "resize(400x300, mode: fit)", format: "webp", quality: 80, priority: .high, output: "/srv/out",
            attempt: 2, enqueuedAt: enqueuedAt, notBefore: enqueuedAt.adding(.seconds(5)),
            lastError: JobError(code: "source.timeout", message: "no answer in 30 s"))
    }

    @Test("A job encodes to exactly the documented JSON, keys sorted")
    func exactJSON() throws {
        let text = String(decoding: try Self.fullJob.jsonData(), as: UTF8.self)
        #expect(
            text
                == #"{"attempt":2,"batch":"spring","chain":"resize(400x300, mode: fit)","enqueuedAt":"2025-06-15T15:06:40.123Z","format":"webp","id":"0197744c-d6fb-7000-8000-000000000001","lastError":{"code":"source.timeout","message":"no answer in 30 s"},"notBefore":"2025-06-15T15:06:45.123Z","output":"/srv/out","priority":"high","quality":80,"source":"https://example.com/a.jpg","version":1}"#
        )
    }

    @Test("Absent optional keys are omitted, and a job round-trips through JSON")
    func roundTrip() throws {
        let minimal = Job(id: JobID(rawValue: "k1") ?? .make(), batch: "b", source: "/a.png", chain: "blur(2)", enqueuedAt: Self.enqueuedAt)
        let text = String(decoding: try minimal.jsonData(), as: UTF8.self)
        #expect(
            text
                == #"{"attempt":1,"batch":"b","chain":"blur(2)","enqueuedAt":"2025-06-15T15:06:40.123Z","id":"k1","priority":"normal","source":"/a.png","version":1}"#
        )
        #expect(Job.decode(try minimal.jsonData()) == .job(minimal))
        #expect(Job.decode(try Self.fullJob.jsonData()) == .job(Self.fullJob))
    }

    @Test("A job's output-name template is the key 'name', sorted after 'lastError', the same through the hand writer")
    func nameKey() throws {
        var job = Self.fullJob
        job.name = "{stem}-{chain}.{ext}"
        let text = String(decoding: try job.jsonData(), as: UTF8.self)
        #expect(text.contains(#""lastError":{"code":"source.timeout","message":"no answer in 30 s"},"name":"{stem}-{chain}.{ext}","notBefore""#))
        #expect(JobJSONWriter.bytes(job) == Array(try job.jsonData()))
        #expect(Job.decode(try job.jsonData()) == .job(job))
        job.name = ""
        guard case .garbage(let reason) = Job.decode(Data(JobJSONWriter.bytes(job))) else {
            Issue.record("an empty name must not decode")
            return
        }
        #expect(reason.contains("'name'"))
    }

    @Test("Unknown keys and null optionals are tolerated")
    func tolerant() {
        let text =
            #"{"version":1,"id":"k1","batch":"b","source":"/a.png","chain":"blur(2)","priority":"low","attempt":1,"enqueuedAt":"2025-06-15T15:06:40.123Z","format":null,"future":{"x":[1,2]}}"#
        guard case .job(let job) = Job.decode(Data(text.utf8)) else {
            Issue.record("not decoded")
            return
        }
        #expect(job.priority == .low)
        #expect(job.format == nil)
    }

    @Test("A record of a newer version is told apart from garbage")
    func unknownVersion() {
        #expect(Job.decode(Data(#"{"version":2,"id":"k1","whatever":true}"#.utf8)) == .unknownVersion(2))
    }

    @Test(
        "Garbage decodes to a reason naming the problem",
        arguments: [
            ("not json at all", "not valid JSON"),
            (#"[1,2]"#, "record"),
            (#"{"id":"k1"}"#, "missing key 'version'"),
            (#"{"version":0}"#, "'version'"),
            (
                #"{"version":1,"id":"k1","batch":"b","source":"/a","priority":"normal","attempt":1,"enqueuedAt":"2025-06-15T15:06:40.123Z"}"#,
                "missing key 'chain'"
            ),
            (
                #"{"version":1,"id":"k1","batch":"b","source":"/a","chain":"c","priority":"urgent","attempt":1,"enqueuedAt":"2025-06-15T15:06:40.123Z"}"#,
                "'priority'"
            ),
            (#"{"version":1,"id":"k1","batch":"b","source":"/a","chain":"c","priority":"low","attempt":1,"enqueuedAt":"yesterday"}"#, "'enqueuedAt'"),
            (
                #"{"version":1,"id":"k1","batch":"b","source":"/a","chain":"c","quality":101,"priority":"low","attempt":1,"enqueuedAt":"2025-06-15T15:06:40.123Z"}"#,
                "'quality' must be 1…100"
            ),
            (#"{"version":1,"id":"","batch":"b","source":"/a","chain":"c","priority":"low","attempt":1,"enqueuedAt":"2025-06-15T15:06:40.123Z"}"#, "'id'"),
            (
                #"{"version":1,"id":"k","batch":"b","source":"/a","chain":"c","priority":"low","attempt":0,"enqueuedAt":"2025-06-15T15:06:40.123Z"}"#,
                "'attempt'"
            ),
        ])
    func garbage(text: String, reasonContains: String) {
        guard case .garbage(let reason) = Job.decode(Data(text.utf8)) else {
            Issue.record("\(text) was not garbage")
            return
        }
        #expect(reason.contains(reasonContains), "reason was: \(reason)")
    }
}
