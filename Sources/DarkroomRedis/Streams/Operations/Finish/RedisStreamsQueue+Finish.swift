import DarkroomQueue
import Foundation

/// Finishing and handing back pending entries: each is one `StreamScripts.finish` call, so the
/// acknowledgement, the event and the batch counter happen together or not at all, and only while
/// the entry is still pending.
extension RedisStreamsQueue {
    public func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async throws -> Bool {
        let now = clock.now()
        let done: Bool? = try await finish(delivery) { current, stream, entryID in
            var request = FinishRequest(stream: stream, entryID: entryID, action: .ack)
            let job = current.job
            switch outcome {
            case .succeeded(let result):
                request.event = .succeeded(
                    job: job.id, batch: job.batch, worker: current.consumer,
                    attempt: current.attempt, result: result, source: job.source, chain: job.chain, metadata: job.metadata, at: now)
                request.counter = "succeeded"
            case .failed(let error):
                request.event = .failed(
                    job: job.id, batch: job.batch, worker: current.consumer,
                    attempt: current.attempt, error: error, willRetry: false, source: job.source, chain: job.chain, metadata: job.metadata,
                    at: now)
                request.counter = "failed"
            }
            request.batch = job.batch
            return (request, true)
        }
        return done ?? false
    }

    public func retry(_ delivery: JobDelivery, after delay: Duration, error: JobError) async throws -> RetryDisposition {
        let now = clock.now()
        let maxAttempts = configuration.maxAttempts
        let disposition: RetryDisposition? = try await finish(delivery) { current, stream, entryID in
            let job = current.job
            let attempt = current.attempt
            if attempt >= maxAttempts {
                return (
                    Self.burial(current, stream: stream, entryID: entryID, error: error, attempt: attempt, at: now),
                    .deadLettered
                )
            }
            var next = job
            next.attempt = attempt + 1
            next.lastError = error
            let due = now.adding(Swift.max(delay, .zero))
            next.notBefore = due
            var request = FinishRequest(stream: stream, entryID: entryID, action: due > now ? .delay : .ready)
            request.payload = try Self.json(next)
            request.lane = StreamLane(job)
            request.due = due
            request.event = .failed(
                job: job.id, batch: job.batch, worker: current.consumer, attempt: attempt,
                error: error, willRetry: true, at: now)
            return (request, .scheduled(at: due))
        }
        return disposition ?? .notPending
    }

    public func deadLetter(_ delivery: JobDelivery, error: JobError) async throws -> Bool {
        let now = clock.now()
        let done: Bool? = try await finish(delivery) { current, stream, entryID in
            (Self.burial(current, stream: stream, entryID: entryID, error: error, attempt: current.attempt, at: now), true)
        }
        return done ?? false
    }

    public func release(_ delivery: JobDelivery, after delay: Duration) async throws -> Bool {
        guard let (lane, entryID) = StreamTag.parse(delivery.tag) else { return false }
        let now = clock.now()
        let due = now.adding(delay)
        // The entry's own record (same attempt) goes back as a fresh entry, whose delivery count
        // starts again at 1: that is "without using up an attempt". No event.
        var request = FinishRequest(stream: keys.stream(lane), entryID: entryID, action: due > now ? .delay : .ready)
        request.requiredConsumer = delivery.consumer
        request.lane = lane
        request.due = due
        return try await redis { try await self.finish(request) } == .done
    }

    /// The request that moves a pending job to the dead-letter stream (its payload as queued) and
    /// publishes `dead` naming the delivery's consumer.
    static func burial(
        _ delivery: JobDelivery, stream: String, entryID: String, error: JobError, attempt: Int,
        at now: Timestamp
    ) -> FinishRequest {
        let job = delivery.job
        var request = FinishRequest(stream: stream, entryID: entryID, action: .dead)
        request.deadError = error
        request.event = .dead(
            job: job.id, batch: job.batch, worker: delivery.consumer, attempt: Swift.max(attempt, 1),
            error: error, source: job.source, chain: job.chain, metadata: job.metadata, at: now)
        request.batch = job.batch
        request.counter = "dead"
        return request
    }
}
