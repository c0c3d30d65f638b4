import DarkroomQueue

/// The ids enqueue derives instead of making new ones, so that a repeated request names the same
/// jobs and the same batch (and enqueueing it again is a no-op). Defined for good, in
/// docs/cli.md: apps compute them too, and `darkroom get SOURCE` relies on the job id's shape.
///
/// Digests are the 64-bit FNV-1a hash `ChainDigest` uses (the client links no C code, and these
/// are names, not a security boundary).
public enum DerivedIDs {
    /// The longest source kept as written in a job id: the 200 bytes of an id less `#` and a
    /// 12-digit digest.
    public static let maxSourceBytes = 200 - 1 - ChainDigest.length

    /// The job id `--id-from-source` gives: `KEY#DIGEST`, where KEY is the absolute source (or,
    /// for a source longer than `maxSourceBytes` or holding control characters, `src-` and the
    /// 16-digit digest of it) and
    /// DIGEST is `ChainDigest.of` the fields that shape the output joined by NUL characters:
    /// canonical chain, format, quality, `1` for first frame only, absolute output directory,
    /// output-name template (each empty when unset), and `keep=` with the keep list only when
    /// there is one (so ids of jobs that keep nothing are what they were), and `placeholders=` with
    /// the placeholder list likewise (a job asking for placeholders is another job than one that
    /// does not, though its output is the same). So two sizes of one source are two jobs,
    /// and the same work enqueued again is the same job.
    public static func jobID(
        source: String, chain: String, format: String?, quality: Int?, firstFrameOnly: Bool,
        output: String?, name: String?, keep: [String]? = nil, placeholders: [String]? = nil
    ) -> String {
        let fields =
            [chain, format ?? "", quality.map { String($0) } ?? "", firstFrameOnly ? "1" : "", output ?? "", name ?? ""]
            + (keep.map { ["keep=" + $0.joined(separator: ",")] } ?? [])
            + (placeholders.map { ["placeholders=" + $0.joined(separator: ",")] } ?? [])
        return sourceKey(source) + "#" + ChainDigest.of(fields.joined(separator: "\u{0}"))
    }

    /// The part of a `--id-from-source` job id that names the source (see `jobID`).
    public static func sourceKey(_ source: String) -> String {
        source.utf8.count <= maxSourceBytes && JobID(rawValue: source) != nil ? source : "src-" + hex16(source)
    }

    /// The batch an enqueue without `--batch` uses when every job's id is given (`"id"` keys or
    /// `--id-from-source`): `ids-` and the 16-digit digest of the distinct ids, sorted, joined by
    /// newlines. The same request lands in the same batch, so `enqueue && wait` can be repeated.
    public static func batch(for ids: [JobID]) -> String {
        "ids-" + hex16(Set(ids.map(\.rawValue)).sorted().joined(separator: "\n"))
    }

    /// The whole 64-bit FNV-1a hash of `text`, 16 lower-case hexadecimal digits.
    static func hex16(_ text: String) -> String {
        let digits = String(ChainDigest.fnv1a64(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
