import ArgumentParser
import DarkroomQueue

/// `--rendition NAME=CHAIN[;format=F][;quality=Q]`, repeatable: several outputs of each source
/// from one decode. Shared by `process`, `run` and `enqueue` (through `JobListOptions`), so the
/// three read renditions alike. `=` and `;` appear nowhere in chain text (its arguments are
/// `name: value`, lists `a+b`), so they cannot clash with it.
struct RenditionOptions: ParsableArguments {
    @Option(
        name: .customLong("rendition"),
        help: ArgumentHelp(
            "An output of each source, from one decode shared by all: NAME=CHAIN[;format=F][;quality=Q], repeatable; NAME is 1-64 of A-Z a-z 0-9 _ -, an empty CHAIN only re-encodes (see docs/renditions.md).",
            valueName: "spec"))
    var specs: [String] = []

    /// The renditions given, in order (chains as typed); nil when none.
    func renditions() throws(UsageFailure) -> [JobRendition]? {
        guard !specs.isEmpty else { return nil }
        var renditions: [JobRendition] = []
        var names = Set<String>()
        for spec in specs {
            let rendition = try Self.rendition(from: spec)
            guard names.insert(rendition.name).inserted else { throw UsageFailure("--rendition '\(rendition.name)' is given twice") }
            renditions.append(rendition)
        }
        guard renditions.count <= JobRendition.maximumPerRecord else {
            throw UsageFailure("at most \(JobRendition.maximumPerRecord) --rendition options (got \(renditions.count))")
        }
        return renditions
    }

    /// One `NAME=CHAIN[;format=F][;quality=Q]`.
    static func rendition(from spec: String) throws(UsageFailure) -> JobRendition {
        guard let equals = spec.firstIndex(of: "=") else {
            throw UsageFailure("--rendition '\(spec.prefix(80))' needs NAME=CHAIN, e.g. small=downsample(256x256);format=webp")
        }
        let name = String(spec[..<equals])
        guard JobRendition.isValidName(name) else {
            throw UsageFailure("--rendition name '\(name.prefix(80))' must be 1-64 of A-Z a-z 0-9 _ -")
        }
        var parts = spec[spec.index(after: equals)...].split(separator: ";", omittingEmptySubsequences: false)
        let chain = String(parts.removeFirst()).trimmingASCIIBlanks
        var rendition = JobRendition(name: name, chain: chain)
        for part in parts {
            let option = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingASCIIBlanks }
            guard option.count == 2, !option[1].isEmpty else {
                throw UsageFailure("--rendition \(name): '\(part.prefix(40))' must be format=F or quality=Q")
            }
            switch option[0] {
            case "format":
                rendition.format = option[1]
            case "quality":
                guard let quality = Int(option[1]), (1...100).contains(quality) else {
                    throw UsageFailure("--rendition \(name): quality must be 1…100 (got '\(option[1].prefix(20))')")
                }
                rendition.quality = quality
            default:
                throw UsageFailure("--rendition \(name): unknown option '\(option[0].prefix(20))'; the options are format and quality")
            }
        }
        return rendition
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingASCIIBlanks: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
