/// Capabilities: what a job needs from the worker that runs it beyond what every Darkroom worker
/// can do, and what a worker offers. A job lists the ones it requires (`Job.requires`); a worker
/// offers a set of them (`WorkerInfo.offers`) and is only handed jobs whose requirements it
/// offers, so a worker older than a feature leaves a job that needs it for one that has it,
/// instead of running it wrongly and reporting success.
///
/// A capability is a name of 1–64 bytes of ASCII letters, digits and `-`, `.`, `_`, `:`, `@`
/// (so a set of them can be joined with `,` into a key or a delivery tag). Three families:
/// - features of the job record that a worker must understand, such as `output-name`;
/// - `processor:<name>` for a processor outside `baselineProcessors`;
/// - `format:<name>` for an output format outside `baselineFormats` (`format:avif`, a plugin's).
public enum Capabilities {
    /// The most capabilities one job may require.
    public static let maximumPerJob = 16

    /// The feature a job with an output-name template (`Job.name`) requires.
    public static let outputName = "output-name"

    /// The feature a job with `metadata` requires: a worker that carries it into the job's events.
    public static let metadata = "metadata"

    /// The capability of decoding the source format `format` (`decode:heic`): offered by a worker
    /// whose coders decode it, for a format only a coder module decodes (HEIC). A job does not
    /// know its source's format when it is enqueued, so it comes to require this only once a
    /// worker without the module has found the format (docs/plugins.md).
    public static func decode(_ format: String) -> String { "decode:\(format)" }

    /// The source formats whose decoding is a capability: those Darkroom recognises but decodes
    /// only with a coder module loaded.
    public static let moduleDecodedFormats: Set<String> = ["heic"]

    /// The feature a job with `keep` requires: a worker that keeps the source's profile and
    /// metadata as asked, where an older one would strip them and report success.
    public static let keep = "keep"

    /// The feature a job whose chain has a width-only or height-only box (`downsample(400x)`,
    /// `resize(x300)`, `crop(400x)`) requires: a worker older than such boxes would refuse the
    /// chain as a permanent failure instead of leaving the job for one that reads it.
    public static let boxSize = "box-size"
    /// The feature a job whose chain has a focal point (`crop(400x300, focus: 0.8,0.3)`,
    /// `resize(…, mode: fill, focus: …)`) requires: `crop` and `resize` are baseline processors,
    /// and a worker older than `focus` would refuse the chain as a permanent failure.
    public static let focusPoint = "focus-point"
    /// The feature a job whose chain has an aspect ratio (`extend(aspect: 16:9)`) requires: a
    /// worker whose `extend` predates `aspect` would refuse the chain.
    public static let aspectRatio = "aspect-ratio"
    /// The feature a job with `placeholders` requires: a worker that computes them and carries
    /// them in the result, where an older one would report success without them.
    public static let placeholders = "placeholders"
    /// The feature a job with `renditions` requires: a worker that makes every rendition from one decode.
    public static let renditions = "renditions"

    /// The capability of fetching `s3://` sources (docs/object-storage.md): offered by a worker
    /// with at least one bucket allowed (`--allow-bucket`), required by a job whose source is an
    /// object in a bucket. Not a feature every worker honours: it depends on configuration.
    public static let s3Source = "source:s3"

    /// What a job's source requires of its worker: for an `s3://` source, `source:s3` and its
    /// bucket's capability (`bucket(alias:name:)`); else nothing.
    public static func sourceRequirements(_ source: String) -> [String] {
        guard source.utf8.count > 5, source.prefix(5).lowercased() == "s3://" else { return [] }
        return [s3Source] + (bucketRequirement(source).map { [$0] } ?? [])
    }

    /// The capability of storing outputs in object storage: required by a job whose `output` is an
    /// `s3://` destination, offered by a worker started with an S3 endpoint and allowed buckets (a
    /// worker without them would refuse the output). Offered per worker, not by the build, so it
    /// is not in `honouredFeatures`.
    public static let s3Output = "output:s3"

    /// `output:s3` and the bucket's capability (`bucket(alias:name:)`) when `output` is an
    /// object-storage destination (`s3://…`), else nothing.
    public static func outputRequirements(_ output: String?) -> [String] {
        guard let output, isObjectStorageDestination(output) else { return [] }
        return [s3Output] + (bucketRequirement(output).map { [$0] } ?? [])
    }

    /// Whether `output` names object storage (`s3://…`, the scheme in any case) rather than a
    /// directory on the output volume.
    public static func isObjectStorageDestination(_ output: String) -> Bool {
        output.utf8.count > 5 && output.prefix(5).lowercased() == "s3://"
    }

    /// The capability of running the processor `name`.
    public static func processor(_ name: String) -> String { "processor:\(name)" }

    /// The processors every Darkroom worker has run since before capabilities existed (the
    /// thirteen standard ones): a chain made only of these requires nothing. Any other processor
    /// (a plugin's, or a standard one added later) makes its job require `processor:<name>`.
    /// Frozen: adding a name here would let older workers take jobs they cannot run.
    public static let baselineProcessors: Set<String> = [
        "blackWhite", "blend", "blur", "border", "colorControls", "crop", "downsample", "flip",
        "overlay", "resize", "rotate", "roundCorner", "tint",
    ]

    /// The capability of writing the output format `name` (canonical, lower-case).
    public static func format(_ name: String) -> String { "format:\(name)" }

    /// The output formats every Darkroom worker has written since before capabilities existed: a
    /// job asking for one of these (or for none) requires nothing. Any other format (AVIF, a
    /// plugin's) makes its job require `format:<name>`. Frozen, as `baselineProcessors` is.
    public static let baselineFormats: Set<String> = ["jpeg", "png", "webp"]

    /// `format:<name>` when a job's output `format` is outside `baselineFormats`, else nothing.
    public static func formatRequirements(_ format: String?) -> [String] {
        guard let format, !baselineFormats.contains(format) else { return [] }
        return [Self.format(format)]
    }

    /// Whether `name` is a well-formed capability name.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...64).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: ":"), UInt8(ascii: "@"):
                return true
            default:
                return false
            }
        }
    }

    /// The canonical form of a requirement list: sorted, without duplicates, nil when empty (a job
    /// that requires nothing carries no `requires` key).
    public static func canonical<S: Sequence<String>>(_ names: S) -> [String]? {
        let sorted = Set(names).sorted()
        return sorted.isEmpty ? nil : sorted
    }

    /// What `requires` breaks, or nil when it is a canonical list of valid names.
    static func problem(_ requires: [String]?) -> String? {
        guard let requires else { return nil }
        if requires.isEmpty { return "'requires' must be absent rather than empty" }
        if requires.count > maximumPerJob { return "'requires' lists at most \(maximumPerJob) capabilities (got \(requires.count))" }
        if let bad = requires.first(where: { !isValidName($0) }) {
            return "'requires' has '\(bad)', which is not a capability name (1–64 of a-z A-Z 0-9 - . _ : @)"
        }
        if requires != requires.sorted() || Set(requires).count != requires.count {
            return "'requires' must be sorted and without duplicates"
        }
        return nil
    }

    /// The features of the job record this build's workers honour (advertised in heartbeats as
    /// `WorkerInfo.capabilities`). A feature is listed here in the same change that teaches the
    /// worker to honour it.
    public static let honouredFeatures: Set<String> = [
        outputName, metadata, keep, boxSize, renditions, focusPoint, aspectRatio, placeholders,
    ]

    /// The features a job record with these fields uses that not every worker honours:
    /// `output-name` when it has an output-name template, `metadata` when it has metadata, `keep`
    /// when it keeps anything of the source, `renditions` when it has renditions, `placeholders`
    /// when it asks for placeholders.
    public static func features(
        name: String?, metadata: String? = nil, keep: [String]? = nil, renditions: Bool = false, placeholders: [String]? = nil
    ) -> [String] {
        (name != nil ? [outputName] : []) + (metadata != nil ? [Self.metadata] : []) + (keep != nil ? [Self.keep] : [])
            + (renditions ? [Self.renditions] : []) + (placeholders != nil ? [Self.placeholders] : [])
    }

    /// What a worker offers: its features, `processor:<name>` for each processor it runs, and
    /// `format:<name>` for each output format it writes.
    public static func offered<S: Sequence<String>>(features: Set<String>, processors: S, formats: [String] = []) -> Set<String> {
        features.union(processors.lazy.map(processor)).union(formats.lazy.map(format))
    }

    /// Whether a worker offering `offered` can honour a job requiring `requires`.
    public static func satisfies(_ offered: Set<String>, _ requires: [String]?) -> Bool {
        guard let requires else { return true }
        return requires.allSatisfy(offered.contains)
    }
}
