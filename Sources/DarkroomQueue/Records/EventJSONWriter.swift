import DarkroomSystem

/// Writes an event record's JSON by hand (the Redis driver's appends and the coordinator's event
/// log), byte for byte what `JobEvent.jsonData()` (Foundation's
/// `JSONEncoder` with sorted keys and unescaped slashes) produces. Every acknowledgement carries
/// one event, and a fresh `JSONEncoder` per event cost more than Redis spends on the whole
/// acknowledgement; `EventJSONWriterTests` holds this writer to `JSONEncoder`'s output on
/// randomised events of every type.
///
/// Keys in sorted order (see `JobEvent+Codable.swift`): `at`, `attempt`?, `batch`?, `chain`?, `count`?,
/// `error`? (`code`, `message`, `willRetry`, `written`?), `id`, `job`?, `result`? (`bytes`, `cache`, `etag`?,
/// `format`, `height`, `ms` (`decode`, `encode`, `fetch`, `process`, `store`, each optional), `output`?,
/// `placeholders`? (`blurhash`?, `color`?, `thumbhash`?), `renditions`? (each `bytes`, `cache`, `etag`?, `format`,
/// `height`, `name`, `output`?, `placeholders`?, `sha256`?, `width`), `sha256`?,
/// `width`), `source`?, `type`, `version`, `worker`?. Strings are escaped like `JobJSONWriter`'s; numbers are
/// written as `JSONEncoder` writes them (a `Double`'s shortest description without a trailing
/// `.0`; stage times rounded to microseconds first, non-finite ones left out, as
/// `StageTimings.encode` does).
package enum EventJSONWriter {
    package static func bytes(_ event: JobEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        write(event, into: &out)
        return out
    }

    /// Writes the record; with `streamId`, that key too, in its sorted place (between `source`
    /// and `type`): the event log's line (`EventLogRecord`).
    package static func write(_ event: JobEvent, streamId: String? = nil, into out: inout [UInt8]) {
        JobJSONWriter.literal(#"{"at":""#, into: &out)
        event.at.appendISO8601(to: &out)
        out.append(UInt8(ascii: "\""))
        if let attempt = event.attempt {
            JobJSONWriter.literal(#","attempt":"#, into: &out)
            JobJSONWriter.integer(attempt, into: &out)
        }
        if let batch = event.batch {
            JobJSONWriter.literal(#","batch":"#, into: &out)
            JobJSONWriter.string(batch, into: &out)
        }
        if let chain = event.chain {
            JobJSONWriter.literal(#","chain":"#, into: &out)
            JobJSONWriter.string(chain, into: &out)
        }
        if let count = event.count {
            JobJSONWriter.literal(#","count":"#, into: &out)
            JobJSONWriter.integer(count, into: &out)
        }
        if let error = event.error {
            JobJSONWriter.literal(#","error":{"code":"#, into: &out)
            JobJSONWriter.string(error.code, into: &out)
            JobJSONWriter.literal(#","message":"#, into: &out)
            JobJSONWriter.string(error.message, into: &out)
            JobJSONWriter.literal((event.willRetry ?? false) ? #","willRetry":true"# : #","willRetry":false"#, into: &out)
            if let written = error.written { JobJSONWriter.stringArray(#","written":["#, written, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
        JobJSONWriter.literal(#","id":"#, into: &out)
        JobJSONWriter.string(event.id, into: &out)
        if let job = event.job {
            JobJSONWriter.literal(#","job":"#, into: &out)
            JobJSONWriter.string(job.rawValue, into: &out)
        }
        if let metadata = event.metadata {
            JobJSONWriter.literal(#","metadata":"#, into: &out)
            JobJSONWriter.string(metadata, into: &out)
        }
        if let result = event.result {
            JobJSONWriter.literal(#","result":"#, into: &out)
            write(result, into: &out)
        }
        if let source = event.source {
            JobJSONWriter.literal(#","source":"#, into: &out)
            JobJSONWriter.string(source, into: &out)
        }
        if let streamId {
            JobJSONWriter.literal(#","streamId":"#, into: &out)
            JobJSONWriter.string(streamId, into: &out)
        }
        JobJSONWriter.literal(#","type":"#, into: &out)
        JobJSONWriter.string(event.type.rawValue, into: &out)
        JobJSONWriter.literal(#","version":"#, into: &out)
        JobJSONWriter.integer(JobEvent.currentVersion, into: &out)
        if let worker = event.worker {
            JobJSONWriter.literal(#","worker":"#, into: &out)
            JobJSONWriter.string(worker, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes what `write(event, streamId:)` writes, from the event's canonical record (as
    /// `bytes(event)` gives it): the record with `streamId` spliced in before `type`. Returns
    /// false, having written nothing, when the record has no `type` key.
    package static func write(record: [UInt8], streamId: String, into out: inout [UInt8]) -> Bool {
        guard let split = typeKeyOffset(in: record) else { return false }
        out.append(contentsOf: record[..<split])
        JobJSONWriter.literal(#","streamId":"#, into: &out)
        JobJSONWriter.string(streamId, into: &out)
        out.append(contentsOf: record[split...])
        return true
    }

    private static let typeKey: [UInt8] = Array(#","type":""#.utf8)

    /// Where `,"type":"` starts in a canonical record. There a `"` inside a string is always
    /// escaped, so `,"` followed by a key occurs only between members, and only the top level has
    /// a `type`; it sits near the end, so the search runs backwards.
    static func typeKeyOffset(in record: [UInt8]) -> Int? {
        let key = typeKey
        guard record.count > key.count else { return nil }
        var start = record.count - key.count
        while start >= 0 {
            if record[start] == key[0], record[start..<(start + key.count)].elementsEqual(key) { return start }
            start -= 1
        }
        return nil
    }

    private static func write(_ result: JobResult, into out: inout [UInt8]) {
        JobJSONWriter.literal(#"{"bytes":"#, into: &out)
        JobJSONWriter.integer(result.bytes, into: &out)
        JobJSONWriter.literal(#","cache":"#, into: &out)
        JobJSONWriter.string(result.cache.rawValue, into: &out)
        if let etag = result.etag {
            JobJSONWriter.literal(#","etag":"#, into: &out)
            JobJSONWriter.string(etag, into: &out)
        }
        JobJSONWriter.literal(#","format":"#, into: &out)
        JobJSONWriter.string(result.format, into: &out)
        JobJSONWriter.literal(#","height":"#, into: &out)
        JobJSONWriter.integer(result.height, into: &out)
        JobJSONWriter.literal(#","ms":{"#, into: &out)
        // Each stage is optional; the first one present has no comma before it.
        var first = true
        func stage(_ key: StaticString, _ value: Double?) {
            guard let value, value.isFinite else { return }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            key.withUTF8Buffer { out.append(contentsOf: $0) }
            double((Swift.max(value, 0) * 1000).rounded() / 1000, into: &out)
        }
        stage(#""decode":"#, result.ms.decode)
        stage(#""encode":"#, result.ms.encode)
        stage(#""fetch":"#, result.ms.fetch)
        stage(#""process":"#, result.ms.process)
        stage(#""store":"#, result.ms.store)
        out.append(UInt8(ascii: "}"))
        if let output = result.output {
            JobJSONWriter.literal(#","output":"#, into: &out)
            JobJSONWriter.string(output, into: &out)
        }
        if let placeholders = result.placeholders { write(placeholders, into: &out) }
        if let renditions = result.renditions {
            JobJSONWriter.literal(#","renditions":["#, into: &out)
            for (index, rendition) in renditions.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(rendition, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        if let sha256 = result.sha256 {
            JobJSONWriter.literal(#","sha256":"#, into: &out)
            JobJSONWriter.string(sha256, into: &out)
        }
        JobJSONWriter.literal(#","width":"#, into: &out)
        JobJSONWriter.integer(result.width, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"placeholders":{…}` with the kinds present, in key order.
    private static func write(_ placeholders: Placeholders, into out: inout [UInt8]) {
        JobJSONWriter.literal(#","placeholders":{"#, into: &out)
        var first = true
        func member(_ key: StaticString, _ value: String?) {
            guard let value else { return }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            key.withUTF8Buffer { out.append(contentsOf: $0) }
            JobJSONWriter.string(value, into: &out)
        }
        member(#""blurhash":"#, placeholders.blurhash)
        member(#""color":"#, placeholders.color)
        member(#""thumbhash":"#, placeholders.thumbhash)
        out.append(UInt8(ascii: "}"))
    }

    private static func write(_ rendition: RenditionResult, into out: inout [UInt8]) {
        JobJSONWriter.literal(#"{"bytes":"#, into: &out)
        JobJSONWriter.integer(rendition.bytes, into: &out)
        JobJSONWriter.literal(#","cache":"#, into: &out)
        JobJSONWriter.string(rendition.cache.rawValue, into: &out)
        if let etag = rendition.etag {
            JobJSONWriter.literal(#","etag":"#, into: &out)
            JobJSONWriter.string(etag, into: &out)
        }
        JobJSONWriter.literal(#","format":"#, into: &out)
        JobJSONWriter.string(rendition.format, into: &out)
        JobJSONWriter.literal(#","height":"#, into: &out)
        JobJSONWriter.integer(rendition.height, into: &out)
        JobJSONWriter.literal(#","name":"#, into: &out)
        JobJSONWriter.string(rendition.name, into: &out)
        if let output = rendition.output {
            JobJSONWriter.literal(#","output":"#, into: &out)
            JobJSONWriter.string(output, into: &out)
        }
        if let placeholders = rendition.placeholders { write(placeholders, into: &out) }
        if let sha256 = rendition.sha256 {
            JobJSONWriter.literal(#","sha256":"#, into: &out)
            JobJSONWriter.string(sha256, into: &out)
        }
        JobJSONWriter.literal(#","width":"#, into: &out)
        JobJSONWriter.integer(rendition.width, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A finite `Double` as `JSONEncoder` writes it: its shortest round-tripping description,
    /// without the `.0` of a whole number (`3`, `0.25`, `1e+16`).
    package static func double(_ value: Double, into out: inout [UInt8]) {
        let text = value.description
        let utf8 = text.utf8
        if utf8.count > 2, text.hasSuffix(".0") {
            out.append(contentsOf: utf8.dropLast(2))
        } else {
            out.append(contentsOf: utf8)
        }
    }
}
