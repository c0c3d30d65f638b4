import DarkroomClient
import DarkroomCodecs
import DarkroomQueue

/// Where each input of `darkroom process` goes, decided before any work so that every usage
/// mistake (two inputs with one base name, an unknown output extension) is reported first.
struct ProcessPlan: Sendable {
    struct Item: Sendable {
        /// The input as typed.
        var input: String
        /// For `-o`: the exact output path. For `--out`: the directory and base name; the
        /// extension follows the format chosen after rendering. Either may be an `s3://` URL
        /// (`BucketOutput`): a prefix without its trailing `/`, or an object's whole key.
        var destination: Destination
    }

    enum Destination: Sendable {
        case file(String)
        /// A file in `directory` named by `template` (nil: the default) from `fields`, whose
        /// extension follows the format chosen after rendering.
        case directory(String, template: OutputNameTemplate?, fields: OutputNameFields)

        func path(for format: ImageFormat) throws(OutputNameError) -> String {
            switch self {
            case .file(let path): return path
            case .directory(let directory, let template, var fields):
                fields.ext = format.fileExtension
                return "\(directory)/\(try (template ?? .default).render(fields))"
            }
        }

        /// The path of rendition `name` (chain digest `chainDigest`) in `format`: under `--out`
        /// only, named by the template or `{stem}-{name}.{ext}`.
        func path(for format: ImageFormat, rendition name: String, chainDigest: String) throws(OutputNameError) -> String {
            guard case .directory(let directory, let template, var fields) = self else { return try path(for: format) }
            fields.ext = format.fileExtension
            fields.name = name
            fields.chain = chainDigest
            return "\(directory)/\(try (template ?? .renditionsDefault).render(fields))"
        }
    }

    var items: [Item]
    /// The format every output is written in, when the user decided it.
    var format: ImageFormat?

    /// `name` is `--name` (nil: the default template); `chain` the canonical chain text, for `{chain}`.
    static func make(
        inputs: [String], outputFile: String?, outputDirectory: String?, format: ImageFormat?, coders: CoderRegistry = .standard,
        name: String? = nil, chain: String = "", renditions: Int = 0
    ) throws(UsageFailure) -> ProcessPlan {
        guard !inputs.isEmpty else { throw UsageFailure("no inputs; give one or more image paths") }
        try LocalOutputPath.check(outputFile, flag: "-o", command: "process")
        try LocalOutputPath.check(outputDirectory, flag: "--out", command: "process")
        switch (outputFile, outputDirectory) {
        case (nil, nil):
            throw UsageFailure("say where to write: -o FILE for one input, or --out DIR")
        case (.some, .some):
            throw UsageFailure("give either -o FILE or --out DIR, not both")
        case (.some, nil) where renditions > 0:
            throw UsageFailure("--rendition writes several files: use --out DIR instead of -o")
        case (.some, nil) where name != nil:
            throw UsageFailure("--name names the files --out DIR gets; -o FILE names its file itself")
        case (.some(let file), nil):
            guard inputs.count == 1 else {
                throw UsageFailure("-o takes one input, got \(inputs.count); use --out DIR for several")
            }
            // A bucket's key is taken as given: its last segment must be a name an output may have.
            if BucketOutput.isBucket(file), BucketOutput.split(file) == nil {
                throw UsageFailure("-o \(file): give the object's whole key, ending in its name (s3://BUCKET/PATH/NAME.EXT)")
            }
            let ext = baseNameAndExtension(of: file).ext
            let resolved: ImageFormat
            if let format {
                resolved = format
            } else if let fromExtension = coders.writableFormat(named: ext) {
                resolved = fromExtension
            } else {
                throw UsageFailure("cannot tell the output format from '\(file)'; name it .jpg, .png or .webp, or pass --format")
            }
            return ProcessPlan(items: [Item(input: inputs[0], destination: .file(file))], format: resolved)
        case (nil, .some(var directory)):
            if BucketOutput.isBucket(directory) { directory = BucketOutput.prefix(directory) }
            return ProcessPlan(
                items: try directoryItems(inputs: inputs, directory: directory, format: format, name: name, chain: chain, renditions: renditions),
                format: format)
        }
    }

    /// Each input's file in `directory`, named as `darkroom run` names them (`OutputClaims`):
    /// `{stem}` falls back to `image-N` (the input's position), which is also `{id}`; `{batch}`
    /// is `process`. A clash the rules cannot settle is refused, naming both inputs.
    static func directoryItems(
        inputs: [String], directory: String, format: ImageFormat?, name: String?, chain: String, renditions: Int = 0
    ) throws(UsageFailure) -> [Item] {
        var template: OutputNameTemplate?
        if let name {
            do throws(OutputNameError) { template = try OutputNameTemplate(parsing: name) } catch {
                throw UsageFailure("--name: \(error.message) [\(error.code.rawValue)]")
            }
            if renditions > 1, template?.fields.contains(.name) == false {
                throw UsageFailure("--name '\(name)' has no {name}, so every rendition would get one name; add {name}, e.g. {stem}-{name}.{ext}")
            }
        }
        // Renditions are named by their own default, never renamed: a clash is refused.
        let claimTemplate = renditions > 0 ? template ?? .renditionsDefault : template
        let digest = ChainDigest.of(chain)
        let claims = inputs.enumerated().map { index, input in
            let id = "image-\(index + 1)"
            let fields = OutputNameFields(
                stem: baseName(ofSource: input, position: index + 1), id: id, batch: "process", chain: digest,
                ext: format?.fileExtension, name: renditions > 0 ? "{name}" : "")
            return OutputClaim(directory: directory, template: claimTemplate, fields: fields, work: input, label: "'\(input)'")
        }
        let settlement = OutputClaims.settle(claims, maxProblems: 1)
        if let problem = settlement.problems.first {
            throw UsageFailure("\(problem.error.message) [\(problem.error.code.rawValue)]")
        }
        return claims.indices.map { index in
            let chosen = settlement.renamed[index] ? OutputNameTemplate.collision : template
            return Item(input: inputs[index], destination: .directory(directory, template: chosen, fields: claims[index].fields))
        }
    }

    /// The output base name for a source: the file name without extension for paths and URLs
    /// (query and fragment ignored: `https://x/a/cat.jpg?w=1` → `cat`), `image-N` for a `data:` URI
    /// or a URL without a file name.
    static func baseName(ofSource source: String, position: Int) -> String {
        // The same naming as a worker's `--out` (so `process` and `run` name files alike); sources
        // with no usable name (`data:` URIs, hidden or empty names) are numbered instead.
        OutputNaming.baseName(ofSource: source) ?? "image-\(position)"
    }

    /// `photos/cat.large.jpg` → (`cat.large`, `jpg`).
    static func baseNameAndExtension(of path: String) -> (base: String, ext: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}
