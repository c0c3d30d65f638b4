import DarkroomAPIKeys
import DarkroomClient
import DarkroomQueue
import Foundation
import Hummingbird

/// The dead-letter endpoints, over the queue's `DeadLetterQueue` (as `darkroom dlq`): list the
/// oldest, queue them again, purge them. Listing needs `read` (a key without `admin` sees the
/// entries of its own jobs only); retrying and purging need `admin`.
struct DeadLetterRoutes: Sendable {
    let client: FleetClient
    let access: APIAccess

    /// The most entries one `GET /v1/dead-letters` lists.
    static let maxLimit = 1000

    /// One dead letter as listed: its job with the source redacted, as events show it.
    struct Entry: Encodable {
        var id: String
        var at: Timestamp
        var error: JobError
        /// Nil for an entry that is not a readable job (garbage, or a newer record version).
        var job: JobSummary?
    }

    struct JobSummary: Encodable {
        var id: String
        var batch: String
        var source: String
        var chain: String
        var attempt: Int
        var metadata: JobMetadata.Value?
    }

    private var queue: any DeadLetterQueue {
        get throws {
            guard let queue = client.queue as? any DeadLetterQueue else {
                throw APIError(.notFound, "this queue keeps no dead letters")
            }
            return queue
        }
    }

    /// `GET /v1/dead-letters?limit=N&cursor=C`: the N oldest (1…1000, default 100) after the
    /// entry `C` (the previous page's `nextCursor`: its last entry's id), whether there are more,
    /// and the next page's cursor (null on the last). For a key without `admin`, the page holds
    /// only its own jobs' entries, so it may hold fewer than N (even none) while `more` is true.
    func list(limit text: String?, cursor: String?, key: APIKey) async throws -> Response {
        try key.permits(scope: .read)
        struct Answer: Encodable {
            var deadLetters: [Entry]
            var more: Bool
            var nextCursor: NextCursor
        }
        let limit = try QueryLimit.parse(text, max: Self.maxLimit)
        let letters: [DeadLetter]
        do {
            letters = try await queue.deadLetters(after: cursor, limit: limit + 1)
        } catch let error as JobQueueError where error.code == .invalidCursor {
            throw APIError(.invalidField, "'cursor' must be the nextCursor of a previous page (got '\(SafeText.sanitized(String(cursor?.prefix(40) ?? "")))')")
        }
        var page = Array(letters.prefix(limit))
        // The cursor is the last entry read, before the key's filter: the next page goes on from there.
        let next = letters.count > limit ? page.last?.id : nil
        if !key.has(scope: .admin) {
            let owners = try await access.owners.owners(ofJobs: page.map { $0.job?.id.rawValue ?? "" })
            page = zip(page, owners).filter { $0.0.job != nil && key.mayAccess(ownedBy: $0.1) }.map(\.0)
        }
        let entries = page.map { letter in
            Entry(
                id: letter.id, at: letter.at, error: letter.error,
                job: letter.job.map { job in
                    JobSummary(
                        id: job.id.rawValue, batch: job.batch, source: SourceRedaction.redact(job.source), chain: job.chain,
                        attempt: job.attempt,
                        metadata: job.metadata.flatMap { try? RecordJSON.decoder().decode(JobMetadata.Value.self, from: Data($0.utf8)) })
                })
        }
        return try APIResponse.json(.ok, Answer(deadLetters: Array(entries), more: next != nil, nextCursor: NextCursor(next)))
    }

    /// `POST /v1/dead-letters/retry` with `{"ids": [...]}` (those entries) or `{}` (all of them).
    func retry(_ body: [UInt8], key: APIKey) async throws -> Response {
        try key.permits(scope: .admin)
        struct Request: Decodable { var ids: [String]? }
        struct Answer: Encodable { var retried: Int }
        let request: Request
        do {
            request = try JSONDecoder().decode(Request.self, from: Data(body.isEmpty ? Array("{}".utf8) : body))
        } catch {
            throw APIError(.invalidJSON, "the body must be {} or {\"ids\": [dead-letter ids]}")
        }
        return try APIResponse.json(.ok, Answer(retried: try await queue.retryDeadLetters(ids: request.ids)))
    }

    /// `DELETE /v1/dead-letters`: deletes every dead letter.
    func purge(key: APIKey) async throws -> Response {
        try key.permits(scope: .admin)
        struct Answer: Encodable { var purged: Int }
        return try APIResponse.json(.ok, Answer(purged: try await queue.purgeDeadLetters()))
    }
}
