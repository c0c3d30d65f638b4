import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

@Suite("Events are versioned JSON with one terminal event per job")
struct JobEventCodingTests {
    static let at = Timestamp(millisecondsSince1970: 1_750_000_000_123)
    static let job = JobID(rawValue: "j1") ?? .make()
    static let result = JobResult(
        output: "/srv/out/a.webp", format: "webp", width: 400, height: 300, bytes: 12_345,
        cache: .miss, ms: StageTimings(fetch: 12.5, decode: 3.25, process: 8, encode: 4.1234567, store: 0.5))
    static let error = JobError(code: "source.http-503", message: "origin busy")

    static var everyType: [JobEvent] {
        [
            .batchEnqueued(batch: "b", count: 3, at: at, id: "e1"),
            .started(job: job, batch: "b", worker: "w1", attempt: 1, at: at, id: "e2"),
            .succeeded(job: job, batch: "b", worker: "w1", attempt: 1, result: result, at: at, id: "e3"),
            .failed(job: job, batch: "b", worker: "w1", attempt: 1, error: error, willRetry: true, at: at, id: "e4"),
            .failed(job: job, batch: "b", worker: "w1", attempt: 2, error: error, willRetry: false, at: at, id: "e5"),
            .dead(job: job, batch: "b", worker: nil, attempt: 5, error: error, at: at, id: "e6"),
            .cancelled(job: job, batch: "b", attempt: 1, at: at, id: "e7"),
            .workerOnline(worker: "host:42", at: at, id: "e8"),
            .workerOffline(worker: "host:42", at: at, id: "e9"),
        ]
    }

    @Test("Every event type round-trips through JSON")
    func roundTrip() throws {
        for event in Self.everyType {
            var expected = event
            expected.result?.ms.encode = event.result.map { _ in 4.123 }
            #expect(JobEvent.decode(try event.jsonData()) == .event(expected))
        }
    }

    @Test("Only succeeded, failed without retry, dead and cancelled are terminal")
    func terminal() {
        #expect(Self.everyType.map(\.isTerminal) == [false, false, true, false, true, true, true, false, false])
    }

    @Test("succeeded, failed and batchEnqueued encode to exactly the documented JSON")
    func exactJSON() throws {
        let events = Self.everyType
        #expect(
            String(decoding: try events[2].jsonData(), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","id":"e3","job":"j1","result":{"bytes":12345,"cache":"miss","format":"webp","height":300,"ms":{"decode":3.25,"encode":4.123,"fetch":12.5,"process":8,"store":0.5},"output":"/srv/out/a.webp","width":400},"type":"succeeded","version":1,"worker":"w1"}"#
        )
        #expect(
            String(decoding: try events[3].jsonData(), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","error":{"code":"source.http-503","message":"origin busy","willRetry":true},"id":"e4","job":"j1","type":"failed","version":1,"worker":"w1"}"#
        )
        #expect(
            String(decoding: try events[5].jsonData(), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","attempt":5,"batch":"b","error":{"code":"source.http-503","message":"origin busy","willRetry":false},"id":"e6","job":"j1","type":"dead","version":1}"#
        )
        #expect(
            String(decoding: try events[0].jsonData(), as: UTF8.self)
                == #"{"at":"2025-06-15T15:06:40.123Z","batch":"b","count":3,"id":"e1","type":"batchEnqueued","version":1}"#)
    }

    @Test("Newer versions and types are unsupported; incomplete events are garbage")
    func decodingOutcomes() {
        #expect(JobEvent.decode(Data(#"{"version":2,"id":"e","type":"started"}"#.utf8)) == .unsupported(reason: "event version 2"))
        #expect(
            JobEvent.decode(Data(#"{"version":1,"id":"e","type":"paused","at":"2025-06-15T15:06:40.123Z"}"#.utf8))
                == .unsupported(reason: "event type 'paused'"))
        let noResult = #"{"version":1,"id":"e","type":"succeeded","at":"2025-06-15T15:06:40.123Z","batch":"b","job":"j","worker":"w","attempt":1}"#
        guard case .garbage(let reason) = JobEvent.decode(Data(noResult.utf8)) else {
            Issue.record("a succeeded event without result was accepted")
            return
        }
        #expect(reason.contains("'result' is required"))
        let negativeTiming =
            #"{"version":1,"id":"e","type":"succeeded","at":"2025-06-15T15:06:40.123Z","batch":"b","job":"j","worker":"w","attempt":1,"result":{"format":"png","width":1,"height":1,"bytes":1,"cache":"disk","ms":{"store":-1}}}"#
        guard case .garbage = JobEvent.decode(Data(negativeTiming.utf8)) else {
            Issue.record("a negative stage time was accepted")
            return
        }
    }
}
