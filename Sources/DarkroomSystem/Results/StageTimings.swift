/// Milliseconds spent in each stage of producing one image: fetch → decode → process → encode →
/// store. A stage that did not run (everything but `fetch` and `store` on a cache hit, say) is
/// nil and omitted from the JSON.
///
/// One type from the renderer up to the job record: `ImageRenderer` fills decode, process and
/// encode, `ImagePipeline` adds fetch and store, a worker adds its output file to `store`, and
/// `JobResult.ms` carries the figures in `succeeded` events. Here, in the system layer, because
/// both the pipeline and the queue records use it and neither depends on the other.
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

    /// The stages that ran, added up.
    public var total: Double {
        [fetch, decode, process, encode, store].reduce(0) { $0 + ($1 ?? 0) }
    }

    /// Adds `milliseconds` to `stage` (a stage that did not run yet starts at 0): for stages
    /// timed in pieces, such as an animation's groups of frames.
    public mutating func add(_ milliseconds: Double, to stage: WritableKeyPath<StageTimings, Double?>) {
        self[keyPath: stage] = (self[keyPath: stage] ?? 0) + milliseconds
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
