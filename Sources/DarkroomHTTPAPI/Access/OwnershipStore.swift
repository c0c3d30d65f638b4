/// Who submitted each job and batch through the API: the submitting key's id, so that a key
/// without `admin` sees and cancels only its own work (`APIKey.mayAccess(ownedBy:)`). Work
/// enqueued by the CLI has no owner, and only `admin` keys see it.
///
/// The records live beside the queue (`RedisOwnershipStore`), not in the job record: the job
/// record is the queue's and the workers', and an owner is only the API's business.
public protocol OwnershipStore: Sendable {
    /// Records `owner` as the owner of `batches` and `jobs`, all or nothing, for `lifetime`.
    ///
    /// A batch keeps its first owner: a batch another key owns, or one that exists without an
    /// owner (the CLI's), is refused unless `isAdmin`, and then nothing is recorded. A job keeps
    /// its first owner too (a repeat of a known id records nothing new).
    ///
    /// - Returns: the first batch refused, or nil when everything was recorded.
    func record(owner: String, isAdmin: Bool, batches: [String], jobs: [String], lifetime: Duration) async throws -> String?

    /// The id of the key that submitted job `id`, or nil (the CLI's, or its record expired).
    func owner(ofJob id: String) async throws -> String?

    /// The owners of jobs `ids`, in their order (nil where none), in one round trip.
    func owners(ofJobs ids: [String]) async throws -> [String?]

    /// The id of the key that first submitted into batch `name`, or nil.
    func owner(ofBatch name: String) async throws -> String?
}

/// How long ownership records live.
public enum Ownership {
    /// As long as a job's idempotency marker and a batch's counters (docs/queue.md): 7 days, plus
    /// the delay of a delayed job, so a key sees its work for as long as the queue remembers it.
    public static let lifetime: Duration = .seconds(7 * 24 * 3600)
}
