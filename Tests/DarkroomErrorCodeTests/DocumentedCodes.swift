import DarkroomTestSupport
import Foundation

/// The codes the docs name: the one table in `docs/limits-and-errors.md` ("## Error codes"), and
/// every backticked `family.code` token in `docs/*.md` and `README.md` whose family is a code
/// family.
enum DocumentedCodes {
    /// Backticked tokens of a code family that are not codes: the fields of a `--json` record
    /// (`source.width`…, docs/cli.md) share the `source` family's name.
    static let recordFields: Set<String> = ["source.format", "source.width", "source.height", "source.origin", "source.frames"]

    static var root: String { PluginBuilds.repositoryRoot }

    /// The pages: every Markdown file in `docs/`, and the README.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return docs + ["README.md"]
    }

    static func text(of page: String) throws -> String {
        try String(contentsOfFile: root + "/" + page, encoding: .utf8)
    }

    /// The first column of the table under `## Error codes` in docs/limits-and-errors.md.
    static func table() throws -> [String] {
        let lines = try text(of: "docs/limits-and-errors.md").split(separator: "\n", omittingEmptySubsequences: false)
        guard let heading = lines.firstIndex(of: "## Error codes") else { return [] }
        var codes: [String] = []
        for line in lines[(heading + 1)...] {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("| `") else { continue }
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            codes.append(String(cell))
        }
        return codes
    }

    /// Each backticked token of one of `families` in `page` (`family.name` or `family.*`).
    static func tokens(in page: String, families: Set<String>) throws -> [String] {
        let text = try text(of: page)
        var found: [String] = []
        for (index, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
            let parts = piece.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, families.contains(String(parts[0])) else { continue }
            let name = parts[1]
            let isName = !name.isEmpty && name.allSatisfy { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" }
            guard isName || name == "*" else { continue }
            let token = String(piece)
            if !recordFields.contains(token) { found.append(token) }
        }
        return found
    }
}
