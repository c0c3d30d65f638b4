import Foundation

/// The JSON settings shared by job and event records, and readable descriptions of decode errors.
public enum RecordJSON {
    /// A compact encoder with keys sorted alphabetically: Foundation's encoder on Linux otherwise
    /// writes keys in hash order, which differs from run to run; sorted output is stable for
    /// diffs, tests and people. Slashes are not escaped so paths and URLs stay readable.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }

    /// One line naming the key and the problem, e.g. `'priority': cannot read the value`.
    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return String(describing: error) }
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "record" : "'" + codingPath.map(\.stringValue).joined(separator: ".") + "'"
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "missing key \(path(context.codingPath + [key]))"
        case .valueNotFound(_, let context):
            return "\(path(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) is not \(type == String.self ? "a string" : "a \(type)")"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.underlyingError != nil { return "not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: decodingError)
        }
    }
}
