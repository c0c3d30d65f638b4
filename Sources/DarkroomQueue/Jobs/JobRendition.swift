import DarkroomSystem

/// One output of a job with renditions (`Job.renditions`): a name, a chain and how to encode it.
/// Every rendition of a job is made from one fetch and one decode of the job's source; see
/// `docs/renditions.md`.
///
/// JSON (keys in alphabetical order, absent optional keys omitted):
///
/// | key | type | meaning |
/// |---|---|---|
/// | `chain` | string | canonical chain text; empty: no processor (only re-encode) |
/// | `format` | string? | output format; absent = the job's `format`, else the source's |
/// | `name` | string | 1–64 of `A-Z a-z 0-9 _ -`, unique within the job |
/// | `quality` | int? | 1…100; absent = the job's `quality`, else the format's default |
public struct JobRendition: Sendable, Hashable, Codable {
    /// The most renditions a job record may hold (a worker's `--max-renditions` is at most this).
    public static let maximumPerRecord = 64
    /// The longest rendition name.
    public static let maximumNameBytes = 64

    /// The rendition's name: `{name}` in output names, the key of its result in the event.
    public var name: String
    /// The processor chain in canonical text; empty for none.
    public var chain: String
    /// The output format name, or nil for the job's.
    public var format: String?
    /// Encoder quality 1…100, or nil for the job's.
    public var quality: Int?

    public init(name: String, chain: String, format: String? = nil, quality: Int? = nil) {
        self.name = name
        self.chain = chain
        self.format = format
        self.quality = quality
    }

    /// Whether `name` is a rendition name: 1–64 bytes of ASCII letters, digits, `_` and `-`.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...maximumNameBytes).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }

    /// The first rule a rendition list breaks, or nil.
    static func problem(_ renditions: [JobRendition]) -> String? {
        if renditions.isEmpty { return "'renditions' must be absent rather than empty" }
        if renditions.count > maximumPerRecord {
            return "'renditions' lists at most \(maximumPerRecord) renditions (got \(renditions.count))"
        }
        var names = Set<String>()
        for rendition in renditions {
            guard isValidName(rendition.name) else {
                return "a rendition's 'name' must be 1–64 of A-Z a-z 0-9 _ - (got '\(String(rendition.name.prefix(40)))')"
            }
            guard names.insert(rendition.name).inserted else { return "rendition name '\(rendition.name)' is given twice" }
            if rendition.chain.utf8.count > 65_536 { return "rendition '\(rendition.name)': 'chain' must be at most 65,536 bytes" }
            if let format = rendition.format, format.isEmpty || format.utf8.count > 16 {
                return "rendition '\(rendition.name)': 'format' must be a format name such as webp"
            }
            if let quality = rendition.quality, !(1...100).contains(quality) {
                return "rendition '\(rendition.name)': 'quality' must be 1…100 (got \(quality))"
            }
        }
        return nil
    }
}

/// One rendition's output, in a `succeeded` event's `result.renditions` (`JobResult`).
public struct RenditionResult: Sendable, Hashable, Codable {
    /// The rendition's name.
    public var name: String
    /// Where it can be read: its file under the job's `output`, or its cache file.
    public var output: String?
    /// The encoded format.
    public var format: String
    public var width: Int
    public var height: Int
    /// Size of the encoded output in bytes.
    public var bytes: Int
    /// Whether it came from the cache or was made by this job's decode.
    public var cache: CacheOutcome
    /// SHA-256 of the output's bytes, when the job had an `output`.
    public var sha256: String?
    /// The stored object's ETag, for an output in object storage (`JobResult.etag`).
    public var etag: String?
    /// This rendition's placeholders, when the job asked for some (`JobResult.placeholders`).
    public var placeholders: Placeholders?

    public init(
        name: String, output: String?, format: String, width: Int, height: Int, bytes: Int, cache: CacheOutcome,
        sha256: String? = nil, etag: String? = nil, placeholders: Placeholders? = nil
    ) {
        self.name = name
        self.output = output
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.cache = cache
        self.sha256 = sha256
        self.etag = etag
        self.placeholders = placeholders
    }
}

extension JobResult {
    /// The result of a job with renditions: the first rendition's output fields (so a reader that
    /// predates renditions sees one valid output), `cache` from `origin(of:)`, and every rendition.
    /// `renditions` must not be empty.
    public init(renditions: [RenditionResult], ms: StageTimings) {
        let first = renditions[0]
        self.init(
            output: first.output, format: first.format, width: first.width, height: first.height, bytes: first.bytes,
            cache: Self.origin(of: renditions), sha256: first.sha256, ms: ms, renditions: renditions, etag: first.etag,
            placeholders: first.placeholders)
    }

    /// `miss` when any rendition was made by the job, else the first rendition's cache.
    public static func origin(of renditions: [RenditionResult]) -> CacheOutcome {
        renditions.contains { $0.cache == .miss } ? .miss : renditions.first?.cache ?? .miss
    }
}
