import Foundation

/// The job record's JSON (version 1). Keys (written in alphabetical order):
///
/// | key | type | meaning |
/// |---|---|---|
/// | `version` | int | record version, `1` |
/// | `id` | string | UUIDv7 or user idempotency key, 1–200 bytes, no control characters |
/// | `batch` | string | batch name/id, same rule as `id` |
/// | `source` | string | path, `http(s)://` URL or `data:` URI, as typed |
/// | `chain` | string | canonical chain text |
/// | `format` | string? | output format; absent = keep the source's |
/// | `quality` | int? | 1…100; absent = format default |
/// | `priority` | string | `high`, `normal` or `low` |
/// | `output` | string? | destination directory; absent = cache only |
/// | `attempt` | int | 1 for a new job, +1 per delayed retry |
/// | `enqueuedAt` | string | ISO-8601 UTC with milliseconds, `2025-03-01T12:34:56.789Z` |
/// | `notBefore` | string? | not handed out before this time |
/// | `lastError` | object? | `{"code","message"}` of the attempt that caused the latest retry |
/// | `firstFrameOnly` | bool? | `true`: only the first frame of an animated source; absent = every frame |
/// | `name` | string? | output-name template (`OutputNameTemplate`), 1–1,024 bytes; absent = `{stem}.{ext}` |
/// | `requires` | [string]? | capabilities the worker must offer (`Capabilities`), sorted, no duplicates; absent = none |
/// | `metadata` | string? | the caller's JSON object as text (`JobMetadata`), ≤ 4,096 bytes, depth ≤ 4; absent = none |
/// | `webhook` | string? | the webhook endpoint notified when the job ends, 1–64 bytes; absent = none |
/// | `renditions` | [object]? | several outputs from one decode (`JobRendition`), 1–64; `chain` is then `renditions` |
/// | `keep` | [string]? | what the output keeps (`JobKeep`): `copyright`, `exif`, `gps`, `icc`, `xmp`, sorted; absent = nothing |
/// | `placeholders` | [string]? | placeholders the result carries (`JobPlaceholders`): `blurhash`, `color`, `thumbhash`, sorted; absent = none |
///
/// Absent optional keys are omitted, never `null` (but `null` is read as absent). Unknown keys are
/// ignored on decode, so newer writers may add keys without a version bump; a change that older
/// readers would misread must bump `version`.
extension Job: Codable {
    enum CodingKeys: String, CodingKey {
        case version, id, batch, source, chain, format, quality, priority, output, attempt, enqueuedAt, notBefore, lastError
        case firstFrameOnly, name, requires, metadata, webhook
        case renditions
        case keep
        case placeholders
    }

    /// Thrown by `init(from:)` for a well-formed record of another version, so `decode` can tell
    /// "newer than me" from garbage.
    struct UnsupportedVersion: Error { var version: Int }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "must be 1 or more")
        }
        guard version == Job.currentVersion else { throw UnsupportedVersion(version: version) }
        self.init(
            id: try container.decode(JobID.self, forKey: .id),
            batch: try container.decode(String.self, forKey: .batch),
            source: try container.decode(String.self, forKey: .source),
            chain: try container.decode(String.self, forKey: .chain),
            format: try container.decodeIfPresent(String.self, forKey: .format),
            quality: try container.decodeIfPresent(Int.self, forKey: .quality),
            priority: try container.decode(JobPriority.self, forKey: .priority),
            output: try container.decodeIfPresent(String.self, forKey: .output),
            attempt: try container.decode(Int.self, forKey: .attempt),
            enqueuedAt: try container.decode(Timestamp.self, forKey: .enqueuedAt),
            notBefore: try container.decodeIfPresent(Timestamp.self, forKey: .notBefore),
            lastError: try container.decodeIfPresent(JobError.self, forKey: .lastError),
            firstFrameOnly: try container.decodeIfPresent(Bool.self, forKey: .firstFrameOnly),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            requires: try container.decodeIfPresent([String].self, forKey: .requires),
            metadata: try container.decodeIfPresent(String.self, forKey: .metadata),
            webhook: try container.decodeIfPresent(String.self, forKey: .webhook),
            renditions: try container.decodeIfPresent([JobRendition].self, forKey: .renditions),
            keep: try container.decodeIfPresent([String].self, forKey: .keep),
            placeholders: try container.decodeIfPresent([String].self, forKey: .placeholders))
        if let problem {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: problem))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Job.currentVersion, forKey: .version)
        try container.encode(id, forKey: .id)
        try container.encode(batch, forKey: .batch)
        try container.encode(source, forKey: .source)
        try container.encode(chain, forKey: .chain)
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(quality, forKey: .quality)
        try container.encode(priority, forKey: .priority)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encode(attempt, forKey: .attempt)
        try container.encode(enqueuedAt, forKey: .enqueuedAt)
        try container.encodeIfPresent(notBefore, forKey: .notBefore)
        try container.encodeIfPresent(lastError, forKey: .lastError)
        try container.encodeIfPresent(firstFrameOnly, forKey: .firstFrameOnly)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(requires, forKey: .requires)
        try container.encodeIfPresent(metadata, forKey: .metadata)
        try container.encodeIfPresent(webhook, forKey: .webhook)
        try container.encodeIfPresent(renditions, forKey: .renditions)
        try container.encodeIfPresent(keep, forKey: .keep)
        try container.encodeIfPresent(placeholders, forKey: .placeholders)
    }

    /// The record as compact JSON, ready for a stream entry.
    public func jsonData() throws -> Data {
        try RecordJSON.encoder().encode(self)
    }

    /// Reads a stream entry: a job of this version, a record of a version this build does not know,
    /// or garbage with the reason. Never throws: a queue must be able to deal with whatever it finds.
    public static func decode(_ data: Data) -> JobDecoding {
        do {
            return .job(try RecordJSON.decoder().decode(Job.self, from: data))
        } catch let unsupported as UnsupportedVersion {
            return .unknownVersion(unsupported.version)
        } catch {
            return .garbage(reason: RecordJSON.describe(error))
        }
    }
}

/// What a stream entry turned out to be.
public enum JobDecoding: Sendable, Hashable {
    /// A job this build can run.
    case job(Job)
    /// A well-formed record of a `version` this build does not know: left for newer workers, and
    /// dead-lettered only after `maxAttempts` deliveries.
    case unknownVersion(Int)
    /// Not a job record (bad JSON, missing or invalid keys): dead-lettered at once with the reason.
    case garbage(reason: String)
}
