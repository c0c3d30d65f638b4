import Foundation

/// A job's metadata: the caller's own small JSON object (an upload id, a user, a record key),
/// stored as its JSON text in `Job.metadata` and carried byte for byte into the job's terminal
/// event, so an application can match a result to its own records.
///
/// Submitted as a JSON object (a `--from` line's or an HTTP job's `"metadata"`), it is stored in
/// its canonical text (`canonicalText`): keys sorted, no spaces, as `JSONEncoder` writes them.
public enum JobMetadata {
    /// The most bytes of its JSON text.
    public static let maxBytes = 4096
    /// The deepest nesting: the object itself is depth 1, an object or array in it depth 2.
    public static let maxDepth = 4

    /// Any JSON value, read from a decoder and written back in canonical form.
    public enum Value: Codable, Sendable, Hashable {
        case null
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }

        /// How deep its arrays and objects nest: 0 for a scalar, 1 for `{}` or `{"a": 1}`, one more
        /// than its deepest element for an array or object.
        public var depth: Int {
            switch self {
            case .array(let values): 1 + (values.map(\.depth).max() ?? 0)
            case .object(let values): 1 + (values.values.map(\.depth).max() ?? 0)
            default: 0
            }
        }
    }

    /// The canonical text of `value`, or why it cannot be metadata.
    public static func canonicalText(_ value: Value) -> Result<String, Problem> {
        guard case .object = value else { return .failure(Problem(message: "'metadata' must be a JSON object")) }
        guard value.depth <= maxDepth else {
            return .failure(Problem(message: "'metadata' nests \(value.depth) levels deep; at most \(maxDepth)"))
        }
        guard let data = try? RecordJSON.encoder().encode(value) else { return .failure(Problem(message: "'metadata' cannot be written as JSON")) }
        guard data.count <= maxBytes else {
            return .failure(Problem(message: "'metadata' is \(data.count) bytes as JSON; at most \(maxBytes)"))
        }
        return .success(String(decoding: data, as: UTF8.self))
    }

    /// Why `text` is not metadata a job record may hold (checked on enqueue and decode), or nil.
    public static func problem(_ text: String) -> String? {
        guard text.utf8.count <= maxBytes else { return "'metadata' must be at most \(maxBytes) bytes of JSON" }
        guard let value = try? RecordJSON.decoder().decode(Value.self, from: Data(text.utf8)) else {
            return "'metadata' must be the text of a JSON object"
        }
        if case .failure(let problem) = canonicalText(value) { return problem.message }
        return nil
    }

    /// Why a value is not metadata.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
    }
}
