import DarkroomSystem

/// The rules of a job record's `placeholders` list: which placeholders (docs/placeholders.md) the
/// job's result carries. The kinds are `PlaceholderKind`'s: `blurhash`, `color`, `thumbhash`.
public enum JobPlaceholders {
    /// Every kind, sorted.
    public static var kinds: [String] { PlaceholderKind.names }

    /// Why a placeholder list cannot be used, for a person.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
    }

    /// `names` in canonical form (sorted, without duplicates; nil when empty), or why they are not
    /// a placeholder list.
    public static func checked<S: Sequence<String>>(_ names: S) throws(Problem) -> [String]? {
        let sorted = Set(names).sorted()
        let list = sorted.isEmpty ? nil : sorted
        if let problem = problem(list) { throw Problem(message: problem) }
        return list
    }

    /// `text` split at commas (spaces around names ignored), checked: the `--placeholders` flag.
    public static func parse(commaSeparated text: String) throws(Problem) -> [String]? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            let leading = part.drop(while: { $0 == " " })
            return String(leading.dropLast(leading.reversed().prefix(while: { $0 == " " }).count))
        }
        if names.contains("") { throw Problem(message: "give placeholder names separated by commas, e.g. blurhash,color") }
        return try checked(names)
    }

    /// The kinds a job record asks for; empty when it asks for none (or lists an unknown one,
    /// which `problem` refuses before any worker sees the record).
    public static func set(_ names: [String]?) -> Set<PlaceholderKind> {
        (try? PlaceholderKind.parse(names ?? []).get()) ?? []
    }

    /// What `placeholders` breaks, or nil when it is absent or a canonical list of known kinds.
    static func problem(_ placeholders: [String]?) -> String? {
        guard let placeholders else { return nil }
        if placeholders.isEmpty { return "'placeholders' must be absent rather than empty" }
        if let unknown = placeholders.first(where: { PlaceholderKind(rawValue: $0) == nil }) {
            return "'placeholders' has '\(unknown.prefix(64))'; the kinds are \(kinds.joined(separator: ", "))"
        }
        if placeholders != placeholders.sorted() || Set(placeholders).count != placeholders.count {
            return "'placeholders' must be sorted and without duplicates"
        }
        return nil
    }
}
