import DarkroomQueue

extension RedisStreamsQueue {
    /// Turns entries just read for `consumer` into deliveries: jobs are handed out (at most `max`;
    /// extra ones from a blocking read go back to the tail of their stream, unused); garbage is
    /// dead-lettered at once without an event; a record of an unknown version stays pending for a
    /// newer worker (and is dead-lettered by `reclaimStale` after `maxAttempts` deliveries).
    func deliver(_ entries: [ReadEntry], to consumer: String, max: Int) async throws -> [JobDelivery] {
        var deliveries: [JobDelivery] = []
        for read in entries {
            let entry = read.entry
            let decoded: JobDecoding =
                entry.hasJobField
                ? Job.decode(entry.payload) : .garbage(reason: "the stream entry has no 'job' field")
            switch decoded {
            case .job(let job):
                if deliveries.count < max {
                    deliveries.append(
                        JobDelivery(
                            tag: StreamTag.make(read.lane, entry.id), job: job,
                            consumer: consumer, deliveryCount: 1))
                } else {
                    var request = FinishRequest(stream: keys.stream(read.lane), entryID: entry.id, action: .ready)
                    request.requiredConsumer = consumer
                    _ = try await finish(request)
                }
            case .unknownVersion:
                break
            case .garbage(let reason):
                var request = FinishRequest(stream: keys.stream(read.lane), entryID: entry.id, action: .dead)
                request.requiredConsumer = consumer
                request.payload = entry.payload
                request.deadError = .garbage(reason)
                _ = try await finish(request)
            }
        }
        return deliveries
    }
}
