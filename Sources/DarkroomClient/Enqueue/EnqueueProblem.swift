import DarkroomChains

/// A reason a job cannot be enqueued, tied to its place (`list.txt:12`, `-p`, or a source).
public struct EnqueueProblem: Error, Sendable, Equatable {
    /// The codes of refusals that are not a chain's (`chain.*`) or an output name's (`name.*`).
    public enum Code: String, Sendable, CaseIterable {
        /// A job without a chain, and no default chain.
        case noChain = "enqueue.no-chain"
        /// An output format no one writes.
        case unknownFormat = "enqueue.unknown-format"
        /// An `id` that cannot be a job id.
        case invalidID = "enqueue.invalid-id"
        /// A field out of its range (the record's own rules, `Job.problem`).
        case invalidJob = "enqueue.invalid-job"
        /// A job requires capabilities no live worker offers.
        case unoffered = "enqueue.unoffered"
        /// A file source or output directory no live worker would accept, or a missing source.
        case unreachablePath = "enqueue.unreachable-path"
    }

    /// Where the mistake is: `list.txt:12`, `-p`, `--format`, `source '…'`; nil when unknown.
    public var location: String?
    /// What is wrong and what to do, one line.
    public var message: String
    /// Extra lines shown under the message (the chain with a caret under the bad column).
    public var detail: [String]
    /// The stable code: a `Code`, a chain's (`chain.*`) or an output name's (`name.*`).
    public var code: String
    /// For a bad chain, the 1-based column of the chain text the error points at.
    public var column: Int?

    /// A problem at `location` (nil: no particular place).
    public init(_ code: Code, location: String?, message: String, detail: [String] = []) {
        self.init(code: code.rawValue, location: location, message: message, detail: detail)
    }

    /// A problem with a code of another family (`chain.*`, `name.*`).
    public init(code: String, location: String?, message: String, detail: [String] = [], column: Int? = nil) {
        self.location = location
        self.message = message
        self.detail = detail
        self.code = code
        self.column = column
    }

    /// The lines to print, each prefixed `darkroom: ` by the caller for the first.
    public var lines: [String] {
        [(location.map { "\($0): " } ?? "") + message] + detail
    }

    /// A bad chain, with the text as typed and a caret under the column the error points at.
    public static func chain(_ error: ChainError, text: String, location: String?) -> EnqueueProblem {
        let caret = String(repeating: " ", count: max(error.column - 1, 0)) + "^"
        return EnqueueProblem(
            code: error.code.rawValue, location: location, message: "bad chain [\(error.code.rawValue)]: \(error)",
            detail: ["    " + SafeText.sanitized(text), "    " + caret], column: error.column)
    }
}

/// Thrown by `FleetClient.prepare` and `enqueue` when any request is bad: then nothing is sent.
public struct EnqueueRefusal: Error, Sendable, Equatable {
    /// Every problem found, in request order (at most `EnqueuePlanner.maxProblems`).
    public var problems: [EnqueueProblem]

    /// A refusal listing `problems`.
    public init(problems: [EnqueueProblem]) { self.problems = problems }
}
