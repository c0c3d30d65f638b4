import DarkroomChains

/// A reason a job cannot be enqueued, tied to its place (`list.txt:12`, `-p`, or a source).
public struct EnqueueProblem: Error, Sendable, Equatable {
    /// Where the mistake is: `list.txt:12`, `-p`, `--format`, `source '…'`; nil when unknown.
    public var location: String?
    /// What is wrong and what to do, one line.
    public var message: String
    /// Extra lines shown under the message (the chain with a caret under the bad column).
    public var detail: [String]

    /// A problem at `location` (nil: no particular place).
    public init(location: String?, message: String, detail: [String] = []) {
        self.location = location
        self.message = message
        self.detail = detail
    }

    /// The lines to print, each prefixed `darkroom: ` by the caller for the first.
    public var lines: [String] {
        [(location.map { "\($0): " } ?? "") + message] + detail
    }

    /// A bad chain, with the text as typed and a caret under the column the error points at.
    public static func chain(_ error: ChainError, text: String, location: String?) -> EnqueueProblem {
        let caret = String(repeating: " ", count: max(error.column - 1, 0)) + "^"
        return EnqueueProblem(
            location: location, message: "bad chain [\(error.code.rawValue)]: \(error)",
            detail: ["    " + SafeText.sanitized(text), "    " + caret])
    }
}

/// Thrown by `FleetClient.prepare` and `enqueue` when any request is bad: then nothing is sent.
public struct EnqueueRefusal: Error, Sendable, Equatable {
    /// Every problem found, in request order (at most `EnqueuePlanner.maxProblems`).
    public var problems: [EnqueueProblem]

    /// A refusal listing `problems`.
    public init(problems: [EnqueueProblem]) { self.problems = problems }
}
