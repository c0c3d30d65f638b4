import ArgumentParser
import DarkroomQueue
import DarkroomSystem

/// `--placeholders KINDS`: the placeholders each result carries (docs/placeholders.md). Shared by
/// `process`, `run` and `enqueue`.
struct PlaceholderOptions: ParsableArguments {
    @Option(
        name: .customLong("placeholders"),
        help: ArgumentHelp(
            "Placeholders to compute from each output: blurhash, thumbhash, color; comma-separated, e.g. blurhash,color. Default: none.",
            valueName: "kinds"))
    var text: String?

    /// The canonical list a job record carries; nil without the flag.
    func names() throws(UsageFailure) -> [String]? {
        guard let text else { return nil }
        do throws(JobPlaceholders.Problem) {
            return try JobPlaceholders.parse(commaSeparated: text)
        } catch {
            throw UsageFailure("--placeholders: \(error.message)")
        }
    }

    /// The kinds asked for; empty without the flag.
    func set() throws(UsageFailure) -> Set<PlaceholderKind> {
        JobPlaceholders.set(try names())
    }

    /// The placeholders of a result as the human report shows them: `  blurhash … thumbhash … color …`,
    /// or nothing.
    static func summary(_ placeholders: Placeholders?) -> String {
        guard let placeholders else { return "" }
        return PlaceholderKind.allCases.compactMap { kind in placeholders[kind].map { "  \(kind.rawValue) \($0)" } }.joined()
    }
}
