import DarkroomQueue
import DarkroomQueueContract
import DarkroomSystem
import Foundation
import Testing

@Suite("Hand-written event JSON")
struct EventJSONWriterTests {
    private static func text(_ random: inout QueueContractRandom, allowControl: Bool = true, length: ClosedRange<Int> = 1...24) -> String {
        AwkwardText.make(&random, allowControl: allowControl, length: length)
    }

    /// Stage times of every shape: absent, zero, negative zero, whole, sub-microsecond, huge, non-finite.
    private static func milliseconds(_ random: inout QueueContractRandom) -> Double? {
        switch Int.random(in: 0...9, using: &random) {
        case 0: return nil
        case 1: return 0
        case 2: return -0.0
        case 3: return Double(Int.random(in: 1...100_000, using: &random))
        case 4: return Double.random(in: 0...0.002, using: &random)
        case 5: return Double.random(in: 1e15...1e22, using: &random)
        case 6: return [Double.nan, .infinity, -.infinity, -3.5].randomElement(using: &random) ?? .nan
        default: return Double.random(in: 0...10_000, using: &random)
        }
    }

    /// A randomised event of type `index % 8`; about half of them carry a `source` and a `chain`
    /// (set directly, so any text reaches the writer, not only what redaction leaves).
    static func event(_ random: inout QueueContractRandom, index: Int) -> JobEvent {
        var event = basicEvent(&random, index: index)
        if Bool.random(using: &random) { event.source = text(&random, length: 1...80) }
        if Bool.random(using: &random) { event.chain = text(&random, length: 1...60) }
        // Metadata is a JSON object's text: quotes and backslashes to escape, whatever else it holds.
        if Bool.random(using: &random) { event.metadata = #"{"k":""# + text(&random, length: 0...40) + #""}"# }
        return event
    }

    private static func basicEvent(_ random: inout QueueContractRandom, index: Int) -> JobEvent {
        let at = Timestamp(millisecondsSince1970: Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random))
        let id = text(&random, allowControl: false)
        let job = JobID(rawValue: text(&random, allowControl: false)) ?? JobID.make()
        let batch = text(&random)
        let worker = text(&random)
        let attempt = Int.random(in: 1...1_000_000, using: &random)
        var error = JobError(code: text(&random), message: text(&random, length: 0...40))
        if Int.random(in: 0...3, using: &random) == 0 { error.written = (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) } }
        var result = JobResult(
            output: Bool.random(using: &random) ? text(&random) : nil, format: text(&random, length: 1...5),
            width: Int.random(in: 0...100_000, using: &random), height: Int.random(in: 0...100_000, using: &random),
            bytes: Int.random(in: 0...Int(Int32.max), using: &random),
            cache: CacheOutcome.allCases.randomElement(using: &random) ?? .miss,
            sha256: Bool.random(using: &random) ? text(&random, length: 1...64) : nil,
            ms: StageTimings(
                fetch: milliseconds(&random), decode: milliseconds(&random), process: milliseconds(&random),
                encode: milliseconds(&random), store: milliseconds(&random)))
        if Int.random(in: 0...3, using: &random) == 0 { result.etag = text(&random, length: 1...40) }
        if Int.random(in: 0...3, using: &random) == 0 {
            result.renditions = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                RenditionResult(
                    name: text(&random), output: Bool.random(using: &random) ? text(&random) : nil, format: text(&random, length: 1...5),
                    width: Int.random(in: 0...100_000, using: &random), height: Int.random(in: 0...100_000, using: &random),
                    bytes: Int.random(in: 0...Int(Int32.max), using: &random),
                    cache: CacheOutcome.allCases.randomElement(using: &random) ?? .miss,
                    sha256: Bool.random(using: &random) ? text(&random, length: 1...64) : nil,
                    etag: Bool.random(using: &random) ? text(&random, length: 1...40) : nil)
            }
        }
        switch index % 8 {
        case 0: return .batchEnqueued(batch: batch, count: Int.random(in: 0...1_000_000, using: &random), at: at, id: id)
        case 1: return .started(job: job, batch: batch, worker: worker, attempt: attempt, at: at, id: id)
        case 2: return .succeeded(job: job, batch: batch, worker: worker, attempt: attempt, result: result, at: at, id: id)
        case 3:
            return .failed(
                job: job, batch: batch, worker: worker, attempt: attempt, error: error,
                willRetry: Bool.random(using: &random), at: at, id: id)
        case 4:
            return .dead(
                job: job, batch: batch, worker: Bool.random(using: &random) ? worker : nil, attempt: attempt,
                error: error, at: at, id: id)
        case 5: return .cancelled(job: job, batch: batch, attempt: attempt, at: at, id: id)
        case 6: return .workerOnline(worker: worker, at: at, id: id)
        default: return .workerOffline(worker: worker, at: at, id: id)
        }
    }

    @Test("Given 4,000 randomised events of every type, the writer produces exactly JSONEncoder's bytes for each")
    func matchesJSONEncoder() throws {
        var random = QueueContractRandom(seed: 2025)
        for index in 0..<4_000 {
            let event = Self.event(&random, index: index)
            let expected = Array(try event.jsonData())
            let written = EventJSONWriter.bytes(event)
            #expect(written == expected, "event \(index): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
        }
    }

    /// The event log's line: the event's record with `streamId` in the same object.
    struct LogLine: Encodable {
        var event: JobEvent
        var streamId: String

        enum CodingKeys: String, CodingKey { case streamId }

        func encode(to encoder: any Encoder) throws {
            try event.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(streamId, forKey: .streamId)
        }
    }

    @Test("Given randomised events with a stream id, the writer produces exactly JSONEncoder's bytes for the event log's line")
    func matchesJSONEncoderWithStreamId() throws {
        var random = QueueContractRandom(seed: 2026)
        for index in 0..<2_000 {
            let event = Self.event(&random, index: index)
            let streamId = "\(1_764_072_000_000 + index)-\(index % 3)"
            let expected = Array(try RecordJSON.encoder().encode(LogLine(event: event, streamId: streamId)))
            var written: [UInt8] = []
            EventJSONWriter.write(event, streamId: streamId, into: &written)
            #expect(written == expected, "event \(index): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
        }
    }

    @Test("A succeeded event is written with its result and stage times as documented")
    func documentedShape() {
        let event = JobEvent.succeeded(
            job: JobID(rawValue: "j1") ?? JobID.make(), batch: "b", worker: "w", attempt: 2,
            result: JobResult(
                output: "/out/a.webp", format: "webp", width: 4, height: 3, bytes: 10,
                cache: .memory, ms: StageTimings(fetch: 0.0123456, store: 2)),
            at: Timestamp(millisecondsSince1970: 1_750_000_000_123), id: "e1")
        #expect(
            String(decoding: EventJSONWriter.bytes(event), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","attempt":2,"batch":"b","id":"e1","job":"j1","result":{"bytes":10,"cache":"memory","format":"webp","height":3,"ms":{"fetch":0.012,"store":2},"output":"/out/a.webp","width":4},"type":"succeeded","version":1,"worker":"w"}"#
        )
    }

    @Test("A terminal event carries the redacted source and the chain in their sorted places; a retrying failure neither")
    func sourceAndChain() {
        let job = JobID(rawValue: "j1") ?? JobID.make()
        let at = Timestamp(millisecondsSince1970: 1_750_000_000_123)
        let error = JobError(code: "source.timeout", message: "slow")
        let source = "https://u:p@example.com/cat.jpg?X-Amz-Signature=abc&w=1"
        let dead = JobEvent.dead(
            job: job, batch: "b", worker: nil, attempt: 3, error: error, source: source, chain: "resize(400x300, mode: fit)",
            at: at, id: "e1")
        #expect(
            String(decoding: EventJSONWriter.bytes(dead), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","attempt":3,"batch":"b","chain":"resize(400x300, mode: fit)","error":{"code":"source.timeout","message":"slow","willRetry":false},"id":"e1","job":"j1","source":"https://***@example.com/cat.jpg?X-Amz-Signature=***&w=1","type":"dead","version":1}"#
        )
        let retrying = JobEvent.failed(
            job: job, batch: "b", worker: "w", attempt: 1, error: error, willRetry: true, source: source, chain: "blur(2)", at: at)
        #expect(retrying.source == nil && retrying.chain == nil)
        let final = JobEvent.failed(
            job: job, batch: "b", worker: "w", attempt: 3, error: error, willRetry: false, source: "/in/a.png", chain: "blur(2)", at: at)
        #expect(final.source == "/in/a.png" && final.chain == "blur(2)")
        let cancelled = JobEvent.cancelled(job: job, batch: "b", attempt: 1, source: "data:image/gif;base64,R0lG", chain: "blur(2)", at: at)
        #expect(cancelled.source == "data:image/gif;base64,… (26 bytes)")
        let succeeded = JobEvent.succeeded(
            job: job, batch: "b", worker: "w", attempt: 1, result: JobResult(output: nil, format: "png", width: 1, height: 1, bytes: 1, cache: .miss),
            source: "https://e.com/a?token=t", chain: "blur(2)", at: at)
        #expect(succeeded.source == "https://e.com/a?token=***")
    }

    @Test("Given 4,000 randomised events, splicing a stream id into the written record gives the log line written whole")
    func streamIdSplice() throws {
        var random = QueueContractRandom(seed: 11)
        for index in 0..<4000 {
            let event = Self.event(&random, index: index)
            let streamId = "\(Int.random(in: 0...Int(Int32.max), using: &random))-\(index)"
            var whole: [UInt8] = []
            EventJSONWriter.write(event, streamId: streamId, into: &whole)
            var spliced: [UInt8] = []
            #expect(EventJSONWriter.write(record: EventJSONWriter.bytes(event), streamId: streamId, into: &spliced))
            #expect(spliced == whole, "event \(index): \(String(decoding: spliced, as: UTF8.self))")
        }
        var untouched: [UInt8] = []
        #expect(!EventJSONWriter.write(record: Array(#"{"at":"x"}"#.utf8), streamId: "1-0", into: &untouched))
        #expect(untouched.isEmpty)
    }
}
