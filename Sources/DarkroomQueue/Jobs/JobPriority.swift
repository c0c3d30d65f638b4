/// Which jobs go first. Every ready `high` job is handed out before any `normal` one, and every
/// `normal` before any `low`; within one priority, first in, first out. (The Redis driver keeps one
/// stream per priority and reads them in this order.)
public enum JobPriority: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    case high
    case normal
    case low

    /// 0 for `high`, 1 for `normal`, 2 for `low`: the order in which queues are read.
    public var rank: Int {
        switch self {
        case .high: 0
        case .normal: 1
        case .low: 2
        }
    }

    /// `high` < `normal` < `low` in reading order (a smaller value is served first).
    public static func < (lhs: JobPriority, rhs: JobPriority) -> Bool { lhs.rank < rhs.rank }

    public var description: String { rawValue }
}
