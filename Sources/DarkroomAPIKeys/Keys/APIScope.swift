/// What an API key may do at all; its grants (`APIKeyGrants`) then bound what it may name.
///
/// | scope | allows |
/// |---|---|
/// | `submit` | submitting jobs (within the key's grants) |
/// | `read` | reading the key's own jobs, batches and results |
/// | `admin` | everything `read` allows, for every key's jobs and batches; cancelling, retrying and purging; managing webhooks |
///
/// `admin` includes `read` (the dashboard's login is an `admin` session, and it must read what it
/// acts on) but not `submit`: a key submits work only when it is named for it, with its grants.
public enum APIScope: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    case submit
    case read
    case admin

    /// Whether a key holding `self` has `scope`: every scope has itself, `admin` has `read` too.
    public func includes(_ scope: APIScope) -> Bool {
        self == scope || (self == .admin && scope == .read)
    }

    /// The order of `allCases` (submit, read, admin), so lists print the same way every time.
    public static func < (lhs: APIScope, rhs: APIScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    public var description: String { rawValue }
}
