import DarkroomSystem

/// What a succeeded job produced; carried by its `succeeded` event.
public struct JobResult: Sendable, Hashable, Codable {
    /// Where the result can be read: the output's location as the worker's output sink reports it
    /// (the file under the job's `output` directory, or the object's `s3://` URL), or the cache
    /// file when the job had no
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
    /// The stored object's ETag as the object store answered it (without quotes), for an output
    /// in object storage (`s3://…`); nil for the output volume, for a job without `output`, and in
    /// events of older workers.
    public var etag: String?
    /// Milliseconds per stage; stages that did not run are absent.
    public var ms: StageTimings
    /// For a job with renditions: every rendition's output, in the job's order (the fields above
    /// then describe the first rendition, so a reader that predates renditions sees one valid
    /// output). Nil for other jobs.
    public var renditions: [RenditionResult]?
    /// The placeholders the job asked for (`Job.placeholders`, docs/placeholders.md), of the
    /// output (the first rendition's, for a job with renditions); nil when it asked for none.
    public var placeholders: Placeholders?

    public init(
        output: String?, format: String, width: Int, height: Int, bytes: Int,
        cache: CacheOutcome, sha256: String? = nil, ms: StageTimings = StageTimings(),
        renditions: [RenditionResult]? = nil, etag: String? = nil, placeholders: Placeholders? = nil
    ) {
        self.output = output
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.cache = cache
        self.sha256 = sha256
        self.etag = etag
        self.ms = ms
        self.renditions = renditions
        self.placeholders = placeholders
    }
}
