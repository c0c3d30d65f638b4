import DarkroomQueue

/// One job stream: a priority, and the capabilities its jobs require (`Job.requires`). Jobs that
/// require nothing live in the three streams of old, `{p}:jobs:high|normal|low`; a job that
/// requires capabilities goes to `{p}:jobs:<priority>/<capabilities joined by ,>`, e.g.
/// `darkroom:jobs:normal/output-name,processor:sharpen`, registered in the set `{p}:lanes`. A
/// worker reads only the lanes whose capabilities it offers, so a worker that lacks one (or
/// predates capabilities, and reads only the three streams) never sees such a job: it waits for a
/// worker that can honour it.
struct StreamLane: Hashable, Sendable, Comparable {
    var priority: JobPriority
    /// Canonical (sorted, unique); empty: the job requires nothing.
    var requires: [String]

    init(_ priority: JobPriority, requires: [String]? = nil) {
        self.priority = priority
        self.requires = requires ?? []
    }

    /// The lane a job is queued in.
    init(_ job: Job) { self.init(job.priority, requires: job.requires) }

    /// `high`, or `high/output-name,processor:sharpen`: the stream key's suffix, the delayed
    /// member's prefix and the first half of a delivery tag.
    var token: String {
        requires.isEmpty ? priority.rawValue : "\(priority.rawValue)/\(requires.joined(separator: ","))"
    }

    /// The lane a token names, or nil for anything this driver would not have written.
    init?<S: StringProtocol>(token: S) {
        guard let slash = token.firstIndex(of: "/") else {
            guard let priority = JobPriority(rawValue: String(token)) else { return nil }
            self.init(priority)
            return
        }
        guard let priority = JobPriority(rawValue: String(token[..<slash])) else { return nil }
        let list: S.SubSequence = token[token.index(after: slash)...]
        let names = list.split(separator: Character(","), omittingEmptySubsequences: false).map { String($0) }
        guard Capabilities.canonical(names) == names, names.allSatisfy(Capabilities.isValidName) else { return nil }
        self.init(priority, requires: names)
    }

    /// Whether a worker offering `offered` may read this lane.
    func isHonoured(by offered: Set<String>) -> Bool { requires.allSatisfy(offered.contains) }

    /// Priority first; within it the lane that requires nothing, then the others by token.
    static func < (left: StreamLane, right: StreamLane) -> Bool {
        if left.priority != right.priority { return left.priority < right.priority }
        if left.requires.isEmpty != right.requires.isEmpty { return left.requires.isEmpty }
        return left.requires.lexicographicallyPrecedes(right.requires)
    }

    /// The three lanes of jobs that require nothing, in reading order.
    static let plain: [StreamLane] = JobPriority.allCases.sorted().map { StreamLane($0) }
}
