import DarkroomQueue
import Foundation

extension RedisStreamsQueue: RequirementAmendingQueue {
    /// The entry's record, rewritten to require `added` too, goes through the delayed set (at least
    /// a millisecond) with its new lane's token: `promoteDue` then registers that lane, creates its
    /// consumer group and appends the job to its stream, as for any delayed job. No event.
    public func release(_ delivery: JobDelivery, after delay: Duration, requiring added: [String]) async throws -> Bool {
        guard let (lane, entryID) = StreamTag.parse(delivery.tag) else { return false }
        let job = delivery.job.requiring(added)
        var request = FinishRequest(stream: keys.stream(lane), entryID: entryID, action: .delay)
        request.requiredConsumer = delivery.consumer
        request.payload = try Self.json(job)
        request.lane = StreamLane(job)
        request.due = clock.now().adding(Swift.max(delay, .milliseconds(1)))
        return try await redis { try await self.finish(request) } == .done
    }
}
