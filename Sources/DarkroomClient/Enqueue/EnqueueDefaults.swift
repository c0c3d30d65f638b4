import DarkroomQueue

/// What every job of one enqueue takes unless its request (a `--from` line) overrides it: the
/// flags of `darkroom enqueue`, or an app's settings for a batch.
public struct EnqueueDefaults: Sendable {
    /// The chain text for requests that name none.
    public var chain: String?
    /// The output format name (`jpeg`, `jpg`, `png`, `webp`); nil keeps the source's.
    public var format: String?
    /// Quality 1…100 for lossy formats; nil leaves it to the worker.
    public var quality: Int?
    /// The order workers take the jobs in (`high` before `normal` before `low`).
    public var priority: JobPriority
    /// Jobs are not handed out before now + delay.
    public var delay: Duration?
    /// Destination directory (made absolute).
    public var output: String?
    /// Derive each job's id from its (absolute) source and what shapes its output
    /// (`DerivedIDs.jobID`), so enqueueing the same work again is a no-op and another size of one
    /// source is another job. A request's own `id` still wins.
    public var idFromSource: Bool
    /// The batch every job goes into.
    public var batch: String
    /// Where relative paths are resolved from.
    public var workingDirectory: String
    /// Only the first frame of animated sources (`--first-frame-only`).
    public var firstFrameOnly: Bool
    /// The output-name template (`--name`); nil for the default, `{stem}.{ext}`.
    public var name: String?
    /// Enqueue jobs whose required capabilities no live worker offers (`--allow-unoffered`): they
    /// wait until a worker that offers them joins. Off: such a request is refused.
    public var allowUnoffered: Bool = false
    /// The webhook endpoint jobs notify when they end (`--webhook`); nil for none. The client
    /// only names it in the job records: whoever enqueues checks that it exists and subscribes
    /// the jobs (DarkroomWebhooks' `RedisWebhookSubscriptions`).
    public var webhook: String?
    /// What every job's output keeps of its source (`--keep`), canonical (`JobKeep`); nil for
    /// nothing.
    public var keep: [String]?
    /// The placeholders every job's result carries (`--placeholders`), canonical
    /// (`JobPlaceholders`); nil for none.
    public var placeholders: [String]?

    /// Renditions for requests that give neither renditions nor a chain (`--rendition`, a batch
    /// body's `renditions`): several outputs of each source from one decode. Their chains as
    /// given (canonicalised when planned).
    public var renditions: [JobRendition]?

    /// Defaults for a batch; only the batch and the directory relative paths start from are required.
    public init(
        chain: String? = nil, format: String? = nil, quality: Int? = nil, priority: JobPriority = .normal,
        delay: Duration? = nil, output: String? = nil, idFromSource: Bool = false, batch: String,
        workingDirectory: String, firstFrameOnly: Bool = false, name: String? = nil
    ) {
        self.chain = chain
        self.format = format
        self.quality = quality
        self.priority = priority
        self.delay = delay
        self.output = output
        self.idFromSource = idFromSource
        self.batch = batch
        self.workingDirectory = workingDirectory
        self.firstFrameOnly = firstFrameOnly
        self.name = name
    }
}
