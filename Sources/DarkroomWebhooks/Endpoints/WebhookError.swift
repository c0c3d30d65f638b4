import DarkroomSystem

/// A webhook operation that cannot be done: a bad name or URL, an unknown endpoint or delivery, a
/// name taken or a rotation in the wrong state. Codes in docs/limits-and-errors.md; `httpStatus`
/// is what the job API answers with.
public struct WebhookError: CodedDarkroomError, Hashable {
    public enum Code: String, CaseIterable, Sendable {
        /// A name or URL breaks the rules.
        case invalid = "webhook.invalid"
        /// No endpoint (or delivery) has that name (or id).
        case unknown = "webhook.unknown"
        /// The name is taken, or the state forbids the change (a third secret, retiring the only one).
        case conflict = "webhook.conflict"

        /// 422, 404 or 409.
        public var httpStatus: Int {
            switch self {
            case .invalid: 422
            case .unknown: 404
            case .conflict: 409
            }
        }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
    public var isTransient: Bool { false }
    public var httpStatus: Int { code.httpStatus }
}
