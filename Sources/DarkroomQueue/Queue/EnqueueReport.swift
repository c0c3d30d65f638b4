/// What one `enqueue` call did with its jobs: how many were new, and where the ones the queue
/// already knew are — so a caller can say honestly what happened to a repeated request.
///
/// A job whose id the queue already knows is never queued or counted again. When it is known in
/// the batch it was enqueued into, it is already counted there (its outcome too, once it has one),
/// so waiting for that batch reports it. When it is known in another batch, it is counted only
/// there: `knownElsewhere` names that batch.
public struct EnqueueReport: Sendable, Hashable {
    /// Jobs of another batch: how many of the call's jobs that batch already holds.
    public struct Elsewhere: Sendable, Hashable {
        /// The batch the queue knows the jobs in.
        public var batch: String
        public var count: Int

        public init(batch: String, count: Int) {
            self.batch = batch
            self.count = count
        }
    }

    /// New jobs, queued and counted into their batches.
    public var added: Int
    /// Jobs skipped because the queue already knew their id (duplicates within the call included).
    public var known: Int
    /// Of the `known` jobs, those the queue knows in a batch other than the one they were enqueued
    /// into, by batch, in the order first met.
    public var knownElsewhere: [Elsewhere]

    public init(added: Int = 0, known: Int = 0, knownElsewhere: [Elsewhere] = []) {
        self.added = added
        self.known = known
        self.knownElsewhere = knownElsewhere
    }

    /// Of the `known` jobs, those already in the batch they were enqueued into (counted there).
    public var knownInBatch: Int { known - knownElsewhere.reduce(0) { $0 + $1.count } }

    /// Records that `count` of the `known` jobs are held by `batch` (another batch than theirs).
    public mutating func addElsewhere(_ batch: String, count: Int) {
        guard count > 0 else { return }
        if let index = knownElsewhere.firstIndex(where: { $0.batch == batch }) {
            knownElsewhere[index].count += count
        } else {
            knownElsewhere.append(Elsewhere(batch: batch, count: count))
        }
    }
}
