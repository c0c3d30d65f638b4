import DarkroomQueue

/// What `enqueue` prints: `batch ID: N jobs enqueued`, and when some ids were already known, where
/// they are — `(M already known: K in this batch, J in batch OTHER)` — or as JSON
/// `{"batch","enqueued","jobs","knownElsewhere","knownInBatch","skipped"}`.
struct EnqueueSummary: Encodable, Equatable {
    /// Skipped jobs held by another batch.
    struct Elsewhere: Encodable, Equatable {
        var batch: String
        var count: Int
    }

    /// How many other batches the text names before summing up the rest.
    static let batchesNamed = 3

    var batch: String
    /// Jobs in the request (after parsing), duplicates included.
    var jobs: Int
    /// New jobs the queue accepted.
    var enqueued: Int
    /// Jobs whose id the queue already knew (or repeated within this request).
    var skipped: Int
    /// Of `skipped`, those counted in this batch already (their outcome too, once they have one).
    var knownInBatch: Int
    /// Of `skipped`, those counted in another batch, by batch.
    var knownElsewhere: [Elsewhere]

    init(batch: String, jobs: Int, report: EnqueueReport) {
        self.batch = batch
        self.jobs = jobs
        enqueued = report.added
        skipped = report.known
        knownInBatch = report.knownInBatch
        knownElsewhere = report.knownElsewhere.map { Elsewhere(batch: $0.batch, count: $0.count) }
    }

    var text: String {
        let head = "batch \(EventFormatting.sanitized(batch)): \(enqueued) job\(enqueued == 1 ? "" : "s") enqueued"
        guard skipped > 0 else { return head }
        var places: [String] = []
        if knownInBatch > 0 { places.append("\(knownInBatch) in this batch") }
        for other in knownElsewhere.prefix(Self.batchesNamed) {
            places.append("\(other.count) in batch \(EventFormatting.sanitized(other.batch))")
        }
        let rest = knownElsewhere.dropFirst(Self.batchesNamed)
        if !rest.isEmpty {
            places.append("\(rest.reduce(0) { $0 + $1.count }) in \(rest.count) other batch\(rest.count == 1 ? "" : "es")")
        }
        return head + " (\(skipped) already known: " + places.joined(separator: ", ") + ")"
    }

    func json() throws -> String {
        try JSONText.line(self)
    }
}
