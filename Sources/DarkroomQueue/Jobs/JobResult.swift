/// What a succeeded job produced; carried by its `succeeded` event.
public struct JobResult: Sendable, Hashable, Codable {
    /// Where the result can be read: the output's location as the worker's output sink reports it
    /// (the file under the job's `output` directory), or the cache file when the job had no
    /// `output`. Nil when the result lives only in memory.
    public var output: String?
    /// The encoded format (`jpeg`, `png`, `webp`, `gif`).
    public var format: String
    /// Pixel width of the result.
    public var width: Int
    /// Pixel height of the result.
    public var height: Int
    /// Size of the encoded result in bytes.
    public var bytes: Int
    /// Where the result came from.
    public var cache: CacheOutcome
    /// The SHA-256 of the output's bytes (64 lower-case hexadecimal digits), given by the output
    /// sink that stored it; nil when the job had no `output` (and in events of older workers).
    public var sha256: String?
    /// Milliseconds per stage; stages that did not run are absent.
    public var ms: StageTimings

    public init(
        output: String?, format: String, width: Int, height: Int, bytes: Int,
        cache: CacheOutcome, sha256: String? = nil, ms: StageTimings = StageTimings()
    ) {
        self.output = output
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.cache = cache
        self.sha256 = sha256
        self.ms = ms
    }
}

/// Whether the result was found already computed.
public enum CacheOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// Found in the worker's memory cache.
    case memory
    /// Found in the shared disk cache.
    case disk
    /// Computed by this job.
    case miss
}

/// Milliseconds spent in each pipeline stage. A stage that did not run (everything but `store`
/// on a cache hit, say) is nil and omitted from the JSON.
public struct StageTimings: Sendable, Hashable, Codable {
    public var fetch: Double?
    public var decode: Double?
    public var process: Double?
    public var encode: Double?
    public var store: Double?

    public init(
        fetch: Double? = nil, decode: Double? = nil, process: Double? = nil,
        encode: Double? = nil, store: Double? = nil
    ) {
        self.fetch = fetch
        self.decode = decode
        self.process = process
        self.encode = encode
        self.store = store
    }

    enum CodingKeys: String, CodingKey { case fetch, decode, process, encode, store }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func read(_ key: CodingKeys) throws -> Double? {
            guard let value = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
            guard value.isFinite, value >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "must be ≥ 0 ms")
            }
            return value
        }
        self.init(
            fetch: try read(.fetch), decode: try read(.decode), process: try read(.process),
            encode: try read(.encode), store: try read(.store))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // Rounded to microseconds: more digits are noise, and JSON cannot carry NaN or infinity.
        func write(_ value: Double?, _ key: CodingKeys) throws {
            guard let value, value.isFinite else { return }
            try container.encode((max(value, 0) * 1000).rounded() / 1000, forKey: key)
        }
        try write(fetch, .fetch)
        try write(decode, .decode)
        try write(process, .process)
        try write(encode, .encode)
        try write(store, .store)
    }
}
