/// A webhook operation that cannot be done: an unknown endpoint, a name taken, a rotation while
/// two secrets are live. `code` is stable (docs/limits-and-errors.md).
public struct WebhookError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// A name or URL breaks the rules, or the request is otherwise malformed.
        case invalid = "webhook_invalid"
        /// No endpoint (or delivery) has that name (or id).
        case notFound = "webhook_not_found"
        /// The name is taken, or the state forbids the operation (a third secret).
        case conflict = "webhook_conflict"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
