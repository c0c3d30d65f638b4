import ArgumentParser
import DarkroomCodecs

/// `--keep ITEMS`: what outputs keep of their source (`MetadataKeep`). Shared by `process`,
/// `run` and `enqueue`.
struct KeepOptions: ParsableArguments {
    @Option(
        name: .customLong("keep"),
        help: ArgumentHelp(
            "Keep the source's icc profile (no sRGB conversion), exif, xmp, copyright (and gps, with exif or xmp); comma-separated, e.g. icc,exif. Default: nothing.",
            valueName: "items"))
    var text: String?

    /// The set asked for; empty without the flag.
    func set() throws(UsageFailure) -> MetadataKeep {
        guard let text else { return [] }
        switch MetadataKeep.parse(commaSeparated: text) {
        case .success(let keep): return keep
        case .failure(let problem): throw UsageFailure("--keep: \(problem.message)")
        }
    }

    /// The canonical list a job record carries; nil without the flag.
    func names() throws(UsageFailure) -> [String]? {
        let keep = try set()
        return keep.isEmpty ? nil : keep.canonicalNames
    }
}
