/// A job's id: a UUIDv7 made at enqueue time, or a key the user chose so that enqueueing the same
/// work twice is a no-op (an idempotency key, e.g. the source path).
///
/// Any text of 1–200 UTF-8 bytes without control characters is accepted, so user keys can be paths
/// or URLs; control characters are refused because ids end up in log lines and terminal output.
public struct JobID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// The id `text`, or nil when it is empty, longer than 200 UTF-8 bytes, or holds control characters.
    public init?(rawValue text: String) {
        guard JobID.isAcceptable(text) else { return nil }
        rawValue = text
    }

    /// A new sortable id (UUIDv7) from `generator`, for the time `now`.
    public static func make(now: Timestamp = .now(), using generator: SortableIDGenerator = .shared) -> JobID {
        // A UUID is 36 ASCII characters, always acceptable.
        JobID(unchecked: generator.make(now: now))
    }

    private init(unchecked text: String) { rawValue = text }

    /// The rule shared by job ids, batch names and worker names.
    public static func isAcceptable(_ text: String) -> Bool {
        let count = text.utf8.count
        guard count >= 1, count <= 200 else { return false }
        return !text.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        }
    }

    public static func < (lhs: JobID, rhs: JobID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = JobID(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a job id must be 1–200 bytes without control characters")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
