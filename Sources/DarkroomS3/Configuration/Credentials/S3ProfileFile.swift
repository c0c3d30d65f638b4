/// AWS's shared credentials and config files: INI sections (`[default]`, `[NAME]` in a
/// credentials file, `[profile NAME]` in a config file) of `name = value` lines.
///
/// Blank lines and lines starting with `#` or `;` are comments; spaces around `=` and around a
/// section's name are ignored; names are case-insensitive (kept lower-cased). An indented line
/// after a setting with an empty value belongs to a nested block (`s3 =` followed by indented
/// settings) and is skipped. A later section of the same name adds to the earlier one.
///
/// Errors name the file and the line number, never a line's text: the file holds secrets.
public struct S3ProfileFile: Sendable, Hashable {
    /// The settings of each section, by the section's name as written (`default`, `profile ci`).
    public var sections: [String: [String: String]]

    public init(sections: [String: [String: String]] = [:]) {
        self.sections = sections
    }

    /// Parses `text`; `path` is only for messages.
    public static func parse(_ text: String, path: String) throws(S3Error) -> S3ProfileFile {
        var sections: [String: [String: String]] = [:]
        var current: String?
        var nested = false
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmed(" \t")
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            let indented = rawLine.first == " " || rawLine.first == "\t"
            if indented && nested { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw problem(path, "line \(index + 1) opens a section without a name or a closing ']'")
                }
                let name = line.dropFirst().dropLast().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                current = name
                nested = false
                sections[name, default: [:]] = sections[name] ?? [:]
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw problem(path, "line \(index + 1) is not a [section], a 'name = value' or a comment")
            }
            guard let section = current else {
                throw problem(path, "line \(index + 1) is a setting before any [section]")
            }
            let name = line[..<equals].trimmed(" \t").lowercased()
            let value = line[line.index(after: equals)...].trimmed(" \t")
            guard !name.isEmpty else { throw problem(path, "line \(index + 1) is a setting without a name") }
            nested = value.isEmpty
            sections[section, default: [:]][name] = value
        }
        return S3ProfileFile(sections: sections)
    }

    /// The settings of profile `name`: `[name]` in a credentials file; `[profile name]` (or
    /// `[default]` for `default`) in a config file.
    public func profile(_ name: String, config: Bool) -> [String: String]? {
        if config {
            if let section = sections["profile " + name] { return section }
            return name == "default" ? sections["default"] : nil
        }
        return sections[name]
    }

    /// The settings of a profile that name a way of getting credentials Darkroom does not
    /// support (`credential_process`, `sso_*`, `role_arn`, `source_profile`,
    /// `credential_source`, `web_identity_token_file`), sorted.
    public static func unsupportedSettings(_ profile: [String: String]) -> [String] {
        let named: Set<String> = ["credential_process", "role_arn", "source_profile", "credential_source", "web_identity_token_file"]
        return profile.keys.filter { named.contains($0) || $0.hasPrefix("sso_") }.sorted()
    }

    private static func problem(_ path: String, _ message: String) -> S3Error {
        S3Error(.credentials, "'\(path)': \(message)")
    }
}

extension StringProtocol {
    /// The text without `characters` at either end.
    fileprivate func trimmed(_ characters: String) -> String {
        let set = Set(characters)
        guard let first = firstIndex(where: { !set.contains($0) }), let last = lastIndex(where: { !set.contains($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
