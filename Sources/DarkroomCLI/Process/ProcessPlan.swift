import DarkroomCodecs
import DarkroomQueue
import DarkroomSources
import DarkroomWorker

/// Where each input of `darkroom process` goes, decided before any work so that every usage
/// mistake (two inputs with one base name, an unknown output extension) is reported first.
struct ProcessPlan: Sendable {
    struct Item: Sendable {
        /// The input as typed.
        var input: String
        /// For `-o`: the exact output path. For `--out`: the directory and base name; the
        /// extension follows the format chosen after rendering.
        var destination: Destination
    }

    enum Destination: Sendable {
        case file(String)
        case directory(String, baseName: String)

        func path(for format: ImageFormat) -> String {
            switch self {
            case .file(let path): return path
            case .directory(let directory, let baseName): return "\(directory)/\(baseName).\(format.fileExtension)"
            }
        }
    }

    var items: [Item]
    /// The format every output is written in, when the user decided it.
    var format: ImageFormat?

    static func make(
        inputs: [String], outputFile: String?, outputDirectory: String?, format: ImageFormat?, coders: CoderRegistry = .standard
    ) throws(UsageFailure) -> ProcessPlan {
        guard !inputs.isEmpty else { throw UsageFailure("no inputs; give one or more image paths") }
        switch (outputFile, outputDirectory) {
        case (nil, nil):
            throw UsageFailure("say where to write: -o FILE for one input, or --out DIR")
        case (.some, .some):
            throw UsageFailure("give either -o FILE or --out DIR, not both")
        case (.some(let file), nil):
            guard inputs.count == 1 else {
                throw UsageFailure("-o takes one input, got \(inputs.count); use --out DIR for several")
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
        case (nil, .some(let directory)):
            var seen: [String: String] = [:]
            var items: [Item] = []
            for (index, input) in inputs.enumerated() {
                let base = baseName(ofSource: input, position: index + 1)
                if let earlier = seen[base] {
                    throw UsageFailure("'\(earlier)' and '\(input)' would both be written as \(directory)/\(base).*; rename one or process them separately")
                }
                seen[base] = input
                items.append(Item(input: input, destination: .directory(directory, baseName: base)))
            }
            return ProcessPlan(items: items, format: format)
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
