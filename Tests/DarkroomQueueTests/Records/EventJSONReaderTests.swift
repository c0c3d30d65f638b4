import DarkroomQueue
import DarkroomQueueContract
import Foundation
import Testing

/// The fast path for reading event records must agree with `JSONDecoder` on every input: it reads
/// canonical records itself and leaves everything else to `JSONDecoder`.
@Suite("Hand-read event JSON")
struct EventJSONReaderTests {
    static func foundation(_ bytes: [UInt8]) -> JobEvent? {
        try? RecordJSON.decoder().decode(JobEvent.self, from: Data(bytes))
    }

    static func fast(_ bytes: [UInt8]) -> JobEvent? {
        bytes.withUnsafeBytes { EventJSONReader.read($0) }
    }

    @Test("Given 4,000 randomised events of every type as written, the fast path reads each exactly as JSONDecoder does")
    func canonicalRecords() throws {
        var random = QueueContractRandom(seed: 77)
        for index in 0..<4_000 {
            let event = EventJSONWriterTests.event(&random, index: index)
            let bytes = EventJSONWriter.bytes(event)
            let fast = Self.fast(bytes)
            #expect(fast != nil, "event \(index) took the slow path: \(String(decoding: bytes, as: UTF8.self))")
            #expect(fast == Self.foundation(bytes), "event \(index): \(String(decoding: bytes, as: UTF8.self))")
            if fast == nil || fast != Self.foundation(bytes) { return }
        }
    }

    @Test("A succeeded event's sha256 is read on the fast path; an older worker's event without it still reads, with none")
    func sha256() throws {
        let digest = String(repeating: "0123456789abcdef", count: 4)
        let withDigest =
            #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","id":"e1","job":"j1","result":{"bytes":10,"cache":"miss","format":"webp","height":3,"ms":{"store":2},"output":"/out/a.webp","sha256":""#
            + digest + #"","width":4},"type":"succeeded","version":1,"worker":"w"}"#
        let read = try #require(Self.fast(Array(withDigest.utf8)))
        #expect(read.result?.sha256 == digest)
        #expect(read == Self.foundation(Array(withDigest.utf8)))
        let older = withDigest.replacingOccurrences(of: #","sha256":""# + digest + #"""#, with: "")
        let readOlder = try #require(Self.fast(Array(older.utf8)))
        #expect(readOlder.result?.sha256 == nil)
        #expect(readOlder.result?.output == "/out/a.webp")
        #expect(readOlder == Self.foundation(Array(older.utf8)))
    }

    @Test("An object-storage output's etag, in the result and in each rendition, is read on the fast path; without it, none")
    func etag() throws {
        let record =
            #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","id":"e1","job":"j1","result":{"bytes":10,"cache":"miss","etag":"9e107d9d372bb6826bd81d3542a419d6","format":"webp","height":3,"ms":{"store":2},"output":"s3://thumbs/a.webp","renditions":[{"bytes":10,"cache":"miss","etag":"9e107d9d372bb6826bd81d3542a419d6","format":"webp","height":3,"name":"a","output":"s3://thumbs/a.webp","width":4}],"width":4},"type":"succeeded","version":1,"worker":"w"}"#
        let read = try #require(Self.fast(Array(record.utf8)))
        #expect(read.result?.etag == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(read.result?.renditions?.first?.etag == "9e107d9d372bb6826bd81d3542a419d6")
        #expect(read == Self.foundation(Array(record.utf8)))
        #expect(EventJSONWriter.bytes(read) == Array(record.utf8))
        let volume = record.replacingOccurrences(of: #""etag":"9e107d9d372bb6826bd81d3542a419d6","#, with: "")
        let readVolume = try #require(Self.fast(Array(volume.utf8)))
        #expect(readVolume.result?.etag == nil && readVolume.result?.renditions?.first?.etag == nil)
        #expect(readVolume == Self.foundation(Array(volume.utf8)))
    }

    @Test("A terminal event's source and chain are read on the fast path; out of their sorted places they go to JSONDecoder")
    func sourceAndChain() throws {
        let record =
            #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","chain":"blur(2)","id":"e1","job":"j1","source":"https://***@e.com/a.png","type":"cancelled","version":1}"#
        let read = try #require(Self.fast(Array(record.utf8)))
        #expect(read.source == "https://***@e.com/a.png")
        #expect(read.chain == "blur(2)")
        #expect(read == Self.foundation(Array(record.utf8)))
        let older = #"{"at":"2025-06-15T15:06:40.123Z","attempt":1,"batch":"b","id":"e1","job":"j1","type":"cancelled","version":1}"#
        let readOlder = try #require(Self.fast(Array(older.utf8)))
        #expect(readOlder.source == nil && readOlder.chain == nil)
        let misplaced = record.replacingOccurrences(of: #","chain":"blur(2)""#, with: "").replacingOccurrences(
            of: #""type":"cancelled""#, with: #""type":"cancelled","chain":"blur(2)""#)
        #expect(Self.fast(Array(misplaced.utf8)) == nil)
        #expect(Self.foundation(Array(misplaced.utf8)) == read)
        if case .event(let decoded) = JobEvent.decode(Data(misplaced.utf8)) { #expect(decoded == read) } else { Issue.record("not decoded") }
    }

    @Test("Non-canonical, foreign and broken records leave the fast path, and decode exactly as JSONDecoder decides")
    func otherRecords() throws {
        let canonical =
            #"{"at":"2025-06-15T15:06:40.123Z","attempt":2,"batch":"b","id":"e1","job":"j1","result":{"bytes":10,"cache":"memory","format":"webp","height":3,"ms":{"fetch":0.012,"store":2},"output":"/out/a.webp","width":4},"type":"succeeded","version":1,"worker":"w"}"#
        #expect(Self.fast(Array(canonical.utf8)) != nil)
        let variants = [
            canonical.replacingOccurrences(of: #""attempt":2,"batch":"b""#, with: #""batch":"b","attempt":2"#),  // key order
            canonical.replacingOccurrences(of: #""id":"e1""#, with: #""id":"e1","extra":[1,{"a":null}]"#),  // unknown key
            canonical.replacingOccurrences(of: #""version":1"#, with: #""version":2"#),  // newer version
            canonical.replacingOccurrences(of: #""type":"succeeded""#, with: #""type":"teleported""#),  // unknown type
            canonical.replacingOccurrences(of: #""worker":"w""#, with: #""worker":"w\u00e9""#),  // another escape spelling
            canonical.replacingOccurrences(of: #""store":2"#, with: #""store":2.0"#),  // another number spelling
            canonical.replacingOccurrences(of: #""store":2"#, with: #""store":-2"#),  // invalid value
            canonical.replacingOccurrences(of: #","result":{"#, with: #","resulx":{"#),  // succeeded without result
            canonical.replacingOccurrences(of: ",", with: ", "),  // whitespace
            canonical.replacingOccurrences(of: #""job":"j1""#, with: #""job":"""#),  // invalid job id
            #"{"at":"2025-06-15T15:06:40.123Z","id":"e2","type":"workerOnline","version":1,"worker":"caf\#u{e9} \"q\" \\ \n"}"#,
        ]
        for variant in variants {
            let bytes = Array(variant.utf8)
            let decoded: JobEvent? =
                if case .event(let event) = JobEvent.decode(Data(bytes)) { event } else { nil }
            #expect(decoded == Self.foundation(bytes), "\(variant)")
        }
        // Only the last one (canonical escapes) stays on the fast path.
        #expect(variants.dropLast().allSatisfy { Self.fast(Array($0.utf8)) == nil })
        #expect(Self.fast(Array(variants.last!.utf8)) != nil)
        // Every prefix of a record is refused without a crash.
        let bytes = Array(canonical.utf8)
        for length in 0..<bytes.count { #expect(Self.fast(Array(bytes[0..<length])) == nil) }
    }
}
