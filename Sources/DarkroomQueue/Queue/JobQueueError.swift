import DarkroomSystem

/// A queue operation that could not be done. Extensible: drivers add codes (the Redis driver adds
/// connection and script failures) without breaking callers that switch on the ones they know.
public struct JobQueueError: CodedDarkroomError, Hashable {
    public struct Code: RawRepresentable, CaseIterable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A job, consumer name or count the caller passed breaks a rule; the message says which.
        public static let invalidArgument = Code(rawValue: "queue.invalid-argument")
        /// An event cursor from another driver, or malformed.
        public static let invalidCursor = Code(rawValue: "queue.invalid-cursor")
        /// A record could not be encoded.
        public static let encoding = Code(rawValue: "queue.encoding")
        /// The queue's backend could not be reached or failed; retry later.
        public static let unavailable = Code(rawValue: "queue.unavailable")

        /// The codes above; a driver that adds a code lists it in its own error registry entry.
        public static let allCases: [Code] = [.invalidArgument, .invalidCursor, .encoding, .unavailable]
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension JobQueueError {
    public var errorMessage: String { message }
    /// Only an unreachable or failing backend may get better by itself.
    public var isTransient: Bool { code == .unavailable }
    /// The backend could not be reached or failed.
    public var isUnavailable: Bool { code == .unavailable }
}
