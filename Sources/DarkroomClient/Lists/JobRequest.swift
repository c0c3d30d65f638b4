import DarkroomQueue

/// One job as asked for: a source plus whatever a `--from` line overrides. Unset fields take the
/// batch's `EnqueueDefaults` (the command-line flags).
public struct JobRequest: Sendable, Equatable {
    /// 1-based line in the `--from` file, nil for a source given as an argument.
    public var line: Int?
    /// A path, an `http(s)://` URL or a `data:` URI, as given (made absolute when planned).
    public var source: String
    public var chain: String?
    public var format: String?
    public var quality: Int?
    public var priority: JobPriority?
    public var id: String?
    public var output: String?

    public init(line: Int? = nil, source: String, chain: String? = nil, format: String? = nil, quality: Int? = nil,
                priority: JobPriority? = nil, id: String? = nil, output: String? = nil) {
        self.line = line
        self.source = source
        self.chain = chain
        self.format = format
        self.quality = quality
        self.priority = priority
        self.id = id
        self.output = output
    }
}
