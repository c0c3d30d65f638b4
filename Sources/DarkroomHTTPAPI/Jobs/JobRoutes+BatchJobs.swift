import DarkroomAPIKeys
import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import Hummingbird

extension JobRoutes {
    /// The most jobs one `GET /v1/batches/{batch}/jobs` lists.
    static let maxBatchJobsLimit = 1000

    /// `GET /v1/batches/{batch}/jobs?state=S&limit=N&cursor=C`: a page of the batch's jobs in the
    /// order they entered it (`FleetClient.jobs(inBatch:state:cursor:limit:)`), for a key that may
    /// read the batch (its own, or any with `admin`).
    func jobs(inBatch name: String, state stateText: String?, cursor: String?, limit limitText: String?, key: APIKey) async throws
        -> Response
    {
        try key.permits(scope: .read)
        let limit = try QueryLimit.parse(limitText, max: Self.maxBatchJobsLimit)
        var state: BatchJobState?
        if let stateText {
            guard let parsed = BatchJobState(rawValue: stateText) else {
                let states = BatchJobState.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError(.invalidField, "'state' must be one of \(states) (got '\(SafeText.sanitized(String(stateText.prefix(20))))')")
            }
            state = parsed
        }
        if let cursor, BatchJobPage.position(ofCursor: cursor) == nil {
            throw APIError(.invalidField, "'cursor' must be the nextCursor of a previous page (got '\(SafeText.sanitized(String(cursor.prefix(40))))')")
        }
        try await access.requireAccess(key, batch: name, unknown: Self.unknownBatch(name))
        guard let page = try await client.jobs(inBatch: name, state: state, cursor: cursor, limit: limit) else {
            throw Self.unknownBatch(name)
        }
        return try APIResponse.json(.ok, BatchJobsView(page))
    }
}

/// `GET /v1/batches/{batch}/jobs`: `state` and `nextCursor` are written as null when absent, so
/// a client reads one shape.
struct BatchJobsView: Encodable {
    struct Entry: Encodable {
        var id: String
        var state: String
        var attempts: Int
        /// Null for a `queued` job (no event yet).
        var updatedAt: Timestamp?

        private enum Key: String, CodingKey { case id, state, attempts, updatedAt }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(id, forKey: .id)
            try container.encode(state, forKey: .state)
            try container.encode(attempts, forKey: .attempts)
            try container.encode(updatedAt, forKey: .updatedAt)
        }
    }

    var page: BatchJobPage

    init(_ page: BatchJobPage) { self.page = page }

    private enum Key: String, CodingKey { case batch, state, jobs, nextCursor, asOf }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(page.batch, forKey: .batch)
        try container.encode(page.state?.rawValue, forKey: .state)
        try container.encode(
            page.jobs.map { Entry(id: $0.id.rawValue, state: $0.state.rawValue, attempts: $0.attempts, updatedAt: $0.updatedAt) }, forKey: .jobs)
        try container.encode(page.nextCursor, forKey: .nextCursor)
        try container.encode(page.asOf, forKey: .asOf)
    }
}
