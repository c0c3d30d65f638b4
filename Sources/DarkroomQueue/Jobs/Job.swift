/// One unit of work: make `chain` of `source` into `format`, as a JSON record that any worker on
/// any host can run. See `Job+Codable.swift` for the exact JSON.
///
/// A job's id is its identity in the queue: enqueueing a job whose id the queue already knows does
/// nothing. `attempt` counts the attempts that ended in a retry: a new job has attempt 1, and each
/// delayed retry re-enqueues it with the next number and the error that caused it in `lastError`.
public struct Job: Sendable, Hashable {
    /// The record version this build writes and reads.
    public static let currentVersion = 1

    /// The job's identity: a UUIDv7, or an idempotency key the user chose.
    public var id: JobID
    /// The batch the job belongs to; `darkroom wait BATCH` follows it.
    public var batch: String
    /// The source exactly as typed: a path, an `http(s)://` URL or a `data:` URI.
    public var source: String
    /// The processor chain in canonical text (defaults filled in), e.g. `resize(400x300, mode: fit)`.
    public var chain: String
    /// The output format name (`jpeg`, `png`, `webp`, `gif`), or nil to keep the source's format.
    public var format: String?
    /// Encoder quality 1…100, or nil for the format's default.
    public var quality: Int?
    /// The order among ready jobs.
    public var priority: JobPriority
    /// Where the result is also stored: a directory on the output volume, or an object-storage
    /// destination `s3://[ALIAS@]BUCKET/PREFIX/` (the job then requires `output:s3`); nil leaves
    /// it in the cache only.
    public var output: String?
    /// 1 for a new job; one more for each delayed retry.
    public var attempt: Int
    /// When the job was first enqueued (unchanged by retries).
    public var enqueuedAt: Timestamp
    /// The job is not handed out before this time (a `--delay` or a retry's backoff).
    public var notBefore: Timestamp?
    /// The error of the attempt that caused the latest retry.
    public var lastError: JobError?
    /// True to process only the first frame of an animated source (`--first-frame-only`); absent
    /// (nil) processes every frame into an animated WebP.
    public var firstFrameOnly: Bool?
    /// The output-name template (`OutputNameTemplate`, e.g. `{stem}-{chain}.{ext}`) the output
    /// file is named by; absent (nil) names it by the default, `{stem}.{ext}`, with the id's name
    /// when another batch's file has it. A job with a `name` needs a worker that knows the field.
    public var name: String?
    /// The capabilities a worker must offer to run this job (`Capabilities`), sorted and without
    /// duplicates; nil when it needs nothing beyond what every worker can do. Queues hand such a
    /// job only to workers that offer them all, and leave it waiting otherwise.
    public var requires: [String]?
    /// The caller's own JSON object, as text (`JobMetadata`), kept byte for byte and carried into
    /// the job's terminal event, so an application can match a result to its records. A job with
    /// metadata requires the `metadata` capability.
    public var metadata: String?
    /// The webhook endpoint notified when the job ends (`darkroom webhook add`), or nil for none.
    /// Read by the API and people; the coordinator's notifier finds the endpoint by the job's id
    /// (DarkroomWebhooks' subscriptions), so a worker that predates the field, and drops it when it
    /// re-enqueues a retry, changes nothing: no capability is needed.
    public var webhook: String?
    /// Several outputs from one fetch and one decode (`JobRendition`), or nil for the one output
    /// `chain`, `format` and `quality` describe. With renditions, `chain` is `renditionsChain`, and
    /// `format` and `quality` are the defaults of renditions that give none. Requires the
    /// `renditions` capability.
    public var renditions: [JobRendition]?

    /// What `chain` holds in a job with renditions: each rendition has its own chain.
    public static let renditionsChain = "renditions"

    /// What the output keeps of the source (`JobKeep`): some of `copyright`, `exif`, `gps`, `icc`,
    /// `xmp`, sorted, without duplicates; nil keeps nothing (upright sRGB, no metadata). A job
    /// with `keep` requires the `keep` capability.
    public var keep: [String]?

    /// The placeholders its result carries (`JobPlaceholders`, docs/placeholders.md): some of
    /// `blurhash`, `color`, `thumbhash`, sorted, without duplicates; nil for none. A job with
    /// `placeholders` requires the `placeholders` capability.
    public var placeholders: [String]?

    public init(
        id: JobID = .make(), batch: String, source: String, chain: String, format: String? = nil,
        quality: Int? = nil, priority: JobPriority = .normal, output: String? = nil, attempt: Int = 1,
        enqueuedAt: Timestamp = .now(), notBefore: Timestamp? = nil, lastError: JobError? = nil,
        firstFrameOnly: Bool? = nil, name: String? = nil, requires: [String]? = nil, metadata: String? = nil,
        webhook: String? = nil,
        renditions: [JobRendition]? = nil, keep: [String]? = nil, placeholders: [String]? = nil
    ) {
        self.id = id
        self.batch = batch
        self.source = source
        self.chain = chain
        self.format = format
        self.quality = quality
        self.priority = priority
        self.output = output
        self.attempt = attempt
        self.enqueuedAt = enqueuedAt
        self.notBefore = notBefore
        self.lastError = lastError
        self.firstFrameOnly = firstFrameOnly
        self.name = name
        self.requires = requires
        self.metadata = metadata
        self.webhook = webhook
        self.renditions = renditions
        self.keep = keep
        self.placeholders = placeholders
    }

    /// Adds capabilities to `requires`, keeping it canonical.
    public mutating func require<S: Sequence<String>>(_ names: S) {
        requires = Capabilities.canonical((requires ?? []) + Array(names))
    }

    /// The first rule this job breaks, or nil when it is a valid record. Checked on enqueue (so a
    /// bad job is refused before anything is sent) and on decode (so garbage is recognised).
    public var problem: String? {
        if !JobID.isAcceptable(batch) { return "'batch' must be 1–200 bytes without control characters" }
        if source.isEmpty || source.utf8.count > 65_536 { return "'source' must be 1–65,536 bytes" }
        if chain.isEmpty || chain.utf8.count > 65_536 { return "'chain' must be 1–65,536 bytes" }
        if let format, format.isEmpty || format.utf8.count > 16 { return "'format' must be a format name such as jpeg" }
        if let quality, !(1...100).contains(quality) { return "'quality' must be 1…100 (got \(quality))" }
        if let output, output.isEmpty || output.utf8.count > 4096 {
            return "'output' must be a directory path or an s3:// destination of 1–4,096 bytes"
        }
        if let name, name.isEmpty || name.utf8.count > OutputNameTemplate.maxTemplateBytes {
            return "'name' must be an output-name template of 1–1,024 bytes"
        }
        if let webhook, webhook.isEmpty || webhook.utf8.count > 64 { return "'webhook' must be an endpoint name of 1–64 bytes" }
        if !(1...1_000_000).contains(attempt) { return "'attempt' must be 1 or more (got \(attempt))" }
        if let problem = Capabilities.problem(requires) { return problem }
        if let metadata, let problem = JobMetadata.problem(metadata) { return problem }
        if let problem = JobKeep.problem(keep) { return problem }
        if let problem = JobPlaceholders.problem(placeholders) { return problem }
        if let problem = renditionsProblem { return problem }
        return nil
    }
}

extension Job {
    /// What the renditions (or their absence) break: the list's own rules, `chain` being
    /// `renditionsChain`, and a `name` template naming `{name}` only in a job with renditions.
    var renditionsProblem: String? {
        guard let renditions else {
            if let name, name.contains("{name}"), (try? OutputNameTemplate(parsing: name))?.fields.contains(.name) == true {
                return "'name' uses {name}, which only a job with renditions has"
            }
            return nil
        }
        if let problem = JobRendition.problem(renditions) { return problem }
        if chain != Self.renditionsChain { return "'chain' must be '\(Self.renditionsChain)' in a job with renditions" }
        return nil
    }
}
