/// Writes an event record's JSON by hand (the Redis driver's appends and the coordinator's event
/// log), byte for byte what `JobEvent.jsonData()` (Foundation's
/// `JSONEncoder` with sorted keys and unescaped slashes) produces. Every acknowledgement carries
/// one event, and a fresh `JSONEncoder` per event cost more than Redis spends on the whole
/// acknowledgement; `EventJSONWriterTests` holds this writer to `JSONEncoder`'s output on
/// randomised events of every type.
///
/// Keys in sorted order (see `JobEvent+Codable.swift`): `at`, `attempt`?, `batch`?, `count`?,
/// `error`? (`code`, `message`, `willRetry`), `id`, `job`?, `result`? (`bytes`, `cache`, `format`,
/// `height`, `ms` (`decode`, `encode`, `fetch`, `process`, `store`, each optional), `output`?,
/// `width`), `type`, `version`, `worker`?. Strings are escaped like `JobJSONWriter`'s; numbers are
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

    /// Writes the record; with `streamId`, that key too, in its sorted place (between `result`
    /// and `type`): the event log's line (`EventLogRecord`).
    package static func write(_ event: JobEvent, streamId: String? = nil, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"at":""#.utf8)
        out.append(contentsOf: event.at.iso8601.utf8)
        out.append(UInt8(ascii: "\""))
        if let attempt = event.attempt {
            out.append(contentsOf: #","attempt":"#.utf8)
            JobJSONWriter.integer(attempt, into: &out)
        }
        if let batch = event.batch {
            out.append(contentsOf: #","batch":"#.utf8)
            JobJSONWriter.string(batch, into: &out)
        }
        if let count = event.count {
            out.append(contentsOf: #","count":"#.utf8)
            JobJSONWriter.integer(count, into: &out)
        }
        if let error = event.error {
            out.append(contentsOf: #","error":{"code":"#.utf8)
            JobJSONWriter.string(error.code, into: &out)
            out.append(contentsOf: #","message":"#.utf8)
            JobJSONWriter.string(error.message, into: &out)
            out.append(contentsOf: (event.willRetry ?? false) ? #","willRetry":true}"#.utf8 : #","willRetry":false}"#.utf8)
        }
        out.append(contentsOf: #","id":"#.utf8)
        JobJSONWriter.string(event.id, into: &out)
        if let job = event.job {
            out.append(contentsOf: #","job":"#.utf8)
            JobJSONWriter.string(job.rawValue, into: &out)
        }
        if let result = event.result {
            out.append(contentsOf: #","result":"#.utf8)
            write(result, into: &out)
        }
        if let streamId {
            out.append(contentsOf: #","streamId":"#.utf8)
            JobJSONWriter.string(streamId, into: &out)
        }
        out.append(contentsOf: #","type":"#.utf8)
        JobJSONWriter.string(event.type.rawValue, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        JobJSONWriter.integer(JobEvent.currentVersion, into: &out)
        if let worker = event.worker {
            out.append(contentsOf: #","worker":"#.utf8)
            JobJSONWriter.string(worker, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func write(_ result: JobResult, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"bytes":"#.utf8)
        JobJSONWriter.integer(result.bytes, into: &out)
        out.append(contentsOf: #","cache":"#.utf8)
        JobJSONWriter.string(result.cache.rawValue, into: &out)
        out.append(contentsOf: #","format":"#.utf8)
        JobJSONWriter.string(result.format, into: &out)
        out.append(contentsOf: #","height":"#.utf8)
        JobJSONWriter.integer(result.height, into: &out)
        out.append(contentsOf: #","ms":{"#.utf8)
        var first = true
        for (key, value) in [
            ("decode", result.ms.decode), ("encode", result.ms.encode), ("fetch", result.ms.fetch),
            ("process", result.ms.process), ("store", result.ms.store),
        ] {
            guard let value, value.isFinite else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: key.utf8)
            out.append(contentsOf: #"":"#.utf8)
            double((Swift.max(value, 0) * 1000).rounded() / 1000, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        if let output = result.output {
            out.append(contentsOf: #","output":"#.utf8)
            JobJSONWriter.string(output, into: &out)
        }
        out.append(contentsOf: #","width":"#.utf8)
        JobJSONWriter.integer(result.width, into: &out)
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
