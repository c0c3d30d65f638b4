import Foundation

/// The event record's JSON (version 1). Keys (written in alphabetical order); absent keys are omitted:
///
/// | key | type | present for | meaning |
/// |---|---|---|---|
/// | `version` | int | all | record version, `1` |
/// | `id` | string | all | unique event id (UUIDv7) |
/// | `type` | string | all | `batchEnqueued`, `started`, `succeeded`, `failed`, `dead`, `cancelled`, `workerOnline`, `workerOffline` |
/// | `at` | string | all | ISO-8601 UTC with milliseconds |
/// | `batch` | string | batch and job events | the batch |
/// | `job` | string | job events | the job id |
/// | `worker` | string | `started`, `succeeded`, `failed`, worker events; `dead` when a worker gave up | the worker (queue consumer) name |
/// | `attempt` | int | job events | attempt number (1-based, counting retries and redeliveries) |
/// | `count` | int | `batchEnqueued` | new jobs added by that enqueue call |
/// | `result` | object | `succeeded` | `output` (string, optional: a path or an `s3://` URL), `sha256` (optional), `etag` (optional: an object-storage output's ETag), `format`, `width`, `height`, `bytes`, `cache` (`memory`/`disk`/`miss`), `placeholders` (optional: `blurhash`, `thumbhash`, `color`, those the job asked for), `renditions` (optional: per rendition `name`, `output`, `format`, `width`, `height`, `bytes`, `cache`, `sha256`, `etag`, `placeholders`), `ms` (`fetch`, `decode`, `process`, `encode`, `store`; each optional, milliseconds) |
/// | `error` | object | `failed`, `dead` | `code`, `message`, `willRetry` (bool; always false for `dead`), `written` ([string], optional: the renditions stored before a job with renditions failed) |
/// | `source` | string | terminal events (optional: absent from older writers' events) | the job's source, redacted (`SourceRedaction`) |
/// | `chain` | string | terminal events (optional, as `source`) | the job's chain, canonical text |
/// | `metadata` | string | terminal events of jobs with metadata | the job's `metadata`, byte for byte |
///
/// Unknown keys are ignored. A record of another version or of an unknown `type` decodes as
/// `.unsupported` so old readers can skip what newer writers add.
extension JobEvent: Codable {
    enum CodingKeys: String, CodingKey {
        case version, id, type, at, batch, job, worker, attempt, count, result, error, source, chain, metadata
    }

    /// The JSON shape of `error`: the job error plus `willRetry`.
    private struct ErrorRecord: Codable {
        var code: String
        var message: String
        var willRetry: Bool
        var written: [String]?
    }

    struct Unsupported: Error { var reason: String }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == JobEvent.currentVersion else { throw Unsupported(reason: "event version \(version)") }
        let typeName = try container.decode(String.self, forKey: .type)
        guard let type = JobEventType(rawValue: typeName) else { throw Unsupported(reason: "event type '\(typeName.prefix(40))'") }
        let errorRecord = try container.decodeIfPresent(ErrorRecord.self, forKey: .error)
        self.init(
            id: try container.decode(String.self, forKey: .id), type: type,
            at: try container.decode(Timestamp.self, forKey: .at),
            batch: try container.decodeIfPresent(String.self, forKey: .batch),
            job: try container.decodeIfPresent(JobID.self, forKey: .job),
            worker: try container.decodeIfPresent(String.self, forKey: .worker),
            attempt: try container.decodeIfPresent(Int.self, forKey: .attempt),
            count: try container.decodeIfPresent(Int.self, forKey: .count),
            result: try container.decodeIfPresent(JobResult.self, forKey: .result),
            error: errorRecord.map { JobError(code: $0.code, message: $0.message, written: $0.written) },
            willRetry: type == .failed ? errorRecord?.willRetry : nil,
            source: try container.decodeIfPresent(String.self, forKey: .source),
            chain: try container.decodeIfPresent(String.self, forKey: .chain),
            metadata: try container.decodeIfPresent(String.self, forKey: .metadata))
        if let problem {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: problem))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(JobEvent.currentVersion, forKey: .version)
        try container.encode(id, forKey: .id)
        try container.encode(type.rawValue, forKey: .type)
        try container.encode(at, forKey: .at)
        try container.encodeIfPresent(batch, forKey: .batch)
        try container.encodeIfPresent(job, forKey: .job)
        try container.encodeIfPresent(worker, forKey: .worker)
        try container.encodeIfPresent(attempt, forKey: .attempt)
        try container.encodeIfPresent(count, forKey: .count)
        try container.encodeIfPresent(result, forKey: .result)
        if let error {
            try container.encode(
                ErrorRecord(code: error.code, message: error.message, willRetry: willRetry ?? false, written: error.written),
                forKey: .error)
        }
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(chain, forKey: .chain)
        try container.encodeIfPresent(metadata, forKey: .metadata)
    }

    /// The first field this event is missing or has wrong for its type, or nil when it is complete.
    public var problem: String? {
        if id.isEmpty { return "'id' is empty" }
        if type != .workerOnline, type != .workerOffline, batch == nil { return "'batch' is required for \(type.rawValue)" }
        if type.isJobEvent {
            if job == nil { return "'job' is required for \(type.rawValue)" }
            guard let attempt, attempt >= 1 else { return "'attempt' ≥ 1 is required for \(type.rawValue)" }
        }
        switch type {
        case .batchEnqueued:
            if (count ?? -1) < 0 { return "'count' ≥ 0 is required for batchEnqueued" }
        case .succeeded:
            if result == nil { return "'result' is required for succeeded" }
        case .failed, .dead:
            if error == nil { return "'error' is required for \(type.rawValue)" }
        case .started, .workerOnline, .workerOffline:
            if worker == nil { return "'worker' is required for \(type.rawValue)" }
        case .cancelled:
            break
        }
        return nil
    }

    /// The record as compact JSON.
    public func jsonData() throws -> Data {
        try RecordJSON.encoder().encode(self)
    }

    /// `decode(_:)` over bytes as they came (a Redis reply's), copied into `Data` only when the
    /// fast path declines them; also says whether the fast path took them, in which case they are
    /// the event's canonical record (`EventEnvelope.record`).
    package static func decodeNoting(_ bytes: [UInt8]) -> (decoding: JobEventDecoding, canonical: Bool) {
        if let event = bytes.withUnsafeBytes({ EventJSONReader.read($0) }) { return (.event(event), true) }
        return (decodeWithFoundation(Data(bytes)), false)
    }

    /// Reads an event-stream entry without throwing.
    public static func decode(_ data: Data) -> JobEventDecoding {
        // Canonical records (what Darkroom writes) take the fast path; `JSONDecoder` decides the rest.
        if let event = data.withUnsafeBytes({ EventJSONReader.read($0) }) { return .event(event) }
        return decodeWithFoundation(data)
    }

    private static func decodeWithFoundation(_ data: Data) -> JobEventDecoding {
        do {
            return .event(try RecordJSON.decoder().decode(JobEvent.self, from: data))
        } catch let unsupported as Unsupported {
            return .unsupported(reason: unsupported.reason)
        } catch {
            return .garbage(reason: RecordJSON.describe(error))
        }
    }
}

/// What an event-stream entry turned out to be.
public enum JobEventDecoding: Sendable, Hashable {
    case event(JobEvent)
    /// A newer version or type than this build knows: readers skip it.
    case unsupported(reason: String)
    /// Not an event record.
    case garbage(reason: String)
}
