import DarkroomQueue
import Foundation
import Testing

@testable import DarkroomWebhooks

/// The outbox's listings a page at a time, by the cursor each page gives, on a real Redis.
@Suite("Webhook outbox pages", .realTime, .serialized)
struct WebhookOutboxPagesTests {
    /// Pages of `limit` until the last; the ids of each page.
    static func pages(_ outbox: RedisWebhookOutbox, failed: Bool, limit: Int) async throws -> [[String]] {
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let page = try await outbox.list(failed: failed, after: cursor, limit: limit)
            pages.append(page.deliveries.map(\.id))
            cursor = page.nextCursor
        } while cursor != nil && pages.count < 20
        return pages
    }

    @Test("Given deliveries created in the same millisecond, pages of 2 list each once, pending oldest first and failed newest first")
    func pagesFollowByCursor() async throws {
        let fixture = try WebhookFixture()
        let outbox = fixture.outbox()
        // d0–d2 in one millisecond, d3–d4 in the next, d5–d6 in the one after.
        let created: [Int64] = [1_000, 1_000, 1_000, 1_001, 1_001, 1_002, 1_002]
        for (index, ms) in created.enumerated() {
            let at = Timestamp(millisecondsSince1970: ms)
            try await outbox.add(
                WebhookDelivery(id: "d\(index)", endpoint: "app", event: "job.succeeded", orderKey: "job:\(index)", createdAt: at, body: "{}"),
                now: at)
        }
        #expect(try await Self.pages(outbox, failed: false, limit: 2) == [["d0", "d1"], ["d2", "d3"], ["d4", "d5"], ["d6"]])

        // A delivery that leaves the list between two pages shifts nothing.
        let first = try await outbox.list(failed: false, after: nil, limit: 2)
        try await outbox.markDelivered("d1")
        let second = try await outbox.list(failed: false, after: first.nextCursor, limit: 2)
        #expect(second.deliveries.map(\.id) == ["d2", "d3"])

        for id in ["d2", "d3", "d4"] { try await outbox.markFailed(id, error: "HTTP 503", now: Timestamp(millisecondsSince1970: 5_000)) }
        try await outbox.markFailed("d5", error: "HTTP 503", now: Timestamp(millisecondsSince1970: 6_000))
        #expect(try await Self.pages(outbox, failed: true, limit: 2) == [["d5", "d4"], ["d3", "d2"]])
        #expect(try await Self.pages(outbox, failed: true, limit: 3) == [["d5", "d4", "d3"], ["d2"]])
        #expect(try await outbox.list(failed: false, limit: 10).map(\.id) == ["d0", "d6"])

        await #expect(throws: WebhookError.self) { try await outbox.list(failed: false, after: "d3", limit: 2) }
    }
}
