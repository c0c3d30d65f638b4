import DarkroomQueue

/// One `--json` line of `darkroom process` and of `darkroom run`: one record shape for both, whose
/// `result` and `error` are exactly what a `succeeded` or `failed` event carries
/// ([docs/cli.md](../../docs/cli.md#json-records)). Keys in alphabetical order, absent ones omitted:
///
/// | key | in | meaning |
/// |---|---|---|
/// | `source` | all | the source: as given to `process`; the job's (absolute) source for `run` |
/// | `status` | all | `succeeded`, `failed`, or `dead` (run: retries used up) |
/// | `result` | succeeded | `JobResult`: output, format, width, height, bytes, cache, sha256, ms per stage |
/// | `error` | failed, dead | `JobError`: code and message |
/// | `id`, `attempt` | run | the job id and the attempt that ended it |
/// | `input`, `firstFrameOnly` | process, computed results | what was decoded, and whether only the first frame was used |
struct ImageRecord: Codable, Sendable {
    /// The decoded source (`process` only; absent for a cache hit, whose source was not read).
    struct Input: Codable, Sendable, Hashable {
        var format: String
        /// The upright size, before shrink-on-load.
        var width: Int
        var height: Int
        var frames: Int
        /// Where the source bytes came from: `network`, `disk` (the originals cache), `memory`, `local`.
        var origin: String?
    }

    var attempt: Int?
    var error: JobError?
    var firstFrameOnly: Bool?
    var id: String?
    var input: Input?
    var result: JobResult?
    var source: String
    var status: String

    /// Whether the image was made.
    var succeeded: Bool { status == JobEventType.succeeded.rawValue }
}
