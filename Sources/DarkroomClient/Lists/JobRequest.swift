import DarkroomQueue

/// One job as asked for: a source plus whatever a `--from` line overrides. Unset fields take the
/// batch's `EnqueueDefaults` (the command-line flags).
public struct JobRequest: Sendable, Equatable {
    /// 1-based line in the `--from` file, nil for a source given as an argument.
    public var line: Int?
    /// A path, an `http(s)://` URL or a `data:` URI, as given (made absolute when planned).
    public var source: String
    /// Chain text overriding `EnqueueDefaults.chain`.
    public var chain: String?
    /// Output format name overriding `EnqueueDefaults.format`.
    public var format: String?
    /// Quality 1…100 overriding `EnqueueDefaults.quality`.
    public var quality: Int?
    /// Priority overriding `EnqueueDefaults.priority`.
    public var priority: JobPriority?
    /// The job id (enqueueing an id the queue knows is a no-op); nil for a new UUIDv7.
    public var id: String?
    /// Destination directory overriding `EnqueueDefaults.output`.
    public var output: String?
    /// `true` or `false` overriding `EnqueueDefaults.firstFrameOnly`.
    public var firstFrameOnly: Bool?
    /// Output-name template overriding `EnqueueDefaults.name`.
    public var name: String?
    /// The caller's JSON object as canonical text (`JobMetadata`), carried into the job's events.
    public var metadata: String?
    /// Webhook endpoint overriding `EnqueueDefaults.webhook`.
    public var webhook: String?
    /// The keep list (`JobKeep`, canonical) overriding `EnqueueDefaults.keep`.
    public var keep: [String]?
    /// The placeholder list (`JobPlaceholders`, canonical) overriding `EnqueueDefaults.placeholders`.
    public var placeholders: [String]?

    /// Renditions overriding `EnqueueDefaults.renditions`; their chains as given (canonicalised
    /// when planned).
    public var renditions: [JobRendition]?

    /// A request for `source`; every field left nil takes the batch's default.
    public init(
        line: Int? = nil, source: String, chain: String? = nil, format: String? = nil, quality: Int? = nil,
        priority: JobPriority? = nil, id: String? = nil, output: String? = nil, name: String? = nil
    ) {
        self.line = line
        self.source = source
        self.chain = chain
        self.format = format
        self.quality = quality
        self.priority = priority
        self.id = id
        self.output = output
        self.name = name
    }
}
