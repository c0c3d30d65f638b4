/// How `S3Sink` writes outputs (docs/object-storage.md#outputs; the worker's `--s3-*` output flags).
public struct S3SinkOptions: Sendable, Hashable {
    /// S3's least part size (every part but the last): 5 MiB.
    public static let minimumPartSize = 5 * 1024 * 1024

    /// Outputs of at least this many bytes go up as multipart uploads, smaller ones in one PUT.
    /// Default 16 MiB: a thumbnail is one request, and a large output is sent in parts, each
    /// checked by the service on its own, instead of one body S3 limits to 5 GiB.
    public var multipartThreshold: Int
    /// The size of each part but the last; at least `minimumPartSize`. Default 8 MiB.
    public var partSize: Int
    /// `Cache-Control` every output is written with; nil (the default) sends none, so the
    /// bucket's or the CDN's own policy applies.
    public var cacheControl: String?
    /// Whether a write that must not replace another output (`.refuse`) is conditional
    /// (`If-None-Match: *`), so two writers racing for one key cannot both get it. On by default:
    /// AWS (since 2024), R2 and moto honour it; a service that ignores the header makes the HEAD
    /// before the write the only check (a race then lets the last writer win).
    public var conditionalWrites: Bool
    /// A multipart upload in progress for longer than this is taken as orphaned (its worker was
    /// killed) by the sweep (`S3Sink.sweepUploads`). Default one hour.
    public var orphanAge: Duration
    /// How often a worker sweeps its allowed buckets for orphaned uploads. Default 15 minutes.
    public var sweepInterval: Duration

    public init(
        multipartThreshold: Int = 16 * 1024 * 1024, partSize: Int = 8 * 1024 * 1024, cacheControl: String? = nil,
        conditionalWrites: Bool = true, orphanAge: Duration = .seconds(3600), sweepInterval: Duration = .seconds(900)
    ) {
        self.multipartThreshold = max(1, multipartThreshold)
        self.partSize = max(Self.minimumPartSize, partSize)
        self.cacheControl = cacheControl
        self.conditionalWrites = conditionalWrites
        self.orphanAge = max(.zero, orphanAge)
        self.sweepInterval = max(.seconds(1), sweepInterval)
    }

    /// Why `cacheControl` cannot be a header value (a control character would split the request),
    /// or nil.
    public static func cacheControlProblem(_ value: String) -> String? {
        if value.isEmpty || value.utf8.count > 1024 { return "must be 1–1,024 bytes" }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value >= 0x7F }) {
            return "must be printable ASCII (e.g. 'public, max-age=31536000, immutable')"
        }
        return nil
    }
}
