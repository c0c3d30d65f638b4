/// Where a job's outputs go: the seam between the worker, which decides what to store and under
/// which name, and the place that keeps it (the output volume today, `VolumeSink`; object storage
/// tomorrow, as another conforming type, with no change to the worker).
///
/// A *destination* is what a job's `output` field names (a directory on the volume; a bucket and
/// prefix for object storage); a *name* is one output within it (`cat.webp`): a single path
/// component, never empty, `.` or `..`, without `/` or control characters (others are refused
/// with `output.not-allowed`).
///
/// Every implementation keeps this contract (`OutputSinkContract` in the tests holds each to it):
///
/// - **Durable before return.** When `store` returns, the output survives a crash of the host
///   (for the volume: the file's data and its directory entry are `fsync`ed), because the worker
///   acknowledges the job right after. An implementation may offer to skip this where nothing
///   outlives the process (`darkroom run`'s in-process queue), and says so.
/// - **Atomic per output.** A reader sees no output under the name, the previous one, or the new
///   one whole; never part of one (the volume writes a temporary file and gives it the name with
///   `linkat` or `rename`). A failed or abandoned store leaves nothing under the name.
/// - **Idempotent on redelivery.** Storing the same bytes under the same name again (the job ran
///   before and its acknowledgement was lost) succeeds, reports the same location, size and
///   checksum, and leaves one output.
/// - **Different bytes at a taken name** follow `OutputConflict`: `.refuse` leaves the existing
///   output untouched and throws `output.taken` (another job's result, or something that is not
///   an output at all); `.replace` puts the new bytes in its place, atomically.
/// - **Owners.** `store` records the `owner` it is given with the output, and a `.refuse` that
///   finds different bytes under the name says who wrote them (`OutputError.owner`), or nil when
///   the sink cannot tell (the volume keeps owners in extended attributes; a file system without
///   them, or a file written by something else, has none).
/// - **Errors** are `OutputError`s with stable codes: `output.not-allowed` (a destination outside
///   what the sink accepts, or a bad name), `output.taken`, `output.cannot-write` (permanent),
///   `output.disk-full` and `output.io` (transient: the job is retried).
public protocol OutputSink: Sendable {
    /// Checks that outputs may go to `destination` and makes it ready (creates the directory),
    /// before any work is done for a job, so a refused destination costs nothing. Optional:
    /// `store` checks too. Cheap when the destination was prepared before.
    func prepare(_ destination: String) async throws(OutputError)

    /// Stores `bytes` as `name` in `destination`, written by `owner` (nil: nobody in particular),
    /// under the contract above, and says where.
    func store(
        _ bytes: [UInt8], named name: String, in destination: String, owner: OutputOwner?, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput
}

extension OutputSink {
    /// `store` with no owner: for programs that do not name jobs (`darkroom process`, tests).
    public func store(
        _ bytes: [UInt8], named name: String, in destination: String, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput {
        try await store(bytes, named: name, in: destination, owner: nil, onConflict: onConflict)
    }
}

/// What `OutputSink.store` does when the name already holds different bytes. (The same bytes are
/// always success: that is a redelivered job's own output.)
public enum OutputConflict: Sendable, Hashable {
    /// Leave what is there and throw `output.taken`: two jobs racing for one name cannot both get
    /// it. The worker's choice for a name another job may also want (the source's base name).
    case refuse
    /// Replace what is there, atomically: for a name only this writer uses (the job id's name,
    /// `darkroom process -o FILE`).
    case replace
}

/// The rule for output names every sink applies.
public enum OutputName {
    /// Whether `name` is one safe path component (see `OutputSink`).
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && name.utf8.count <= 255
            && !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    }
}
