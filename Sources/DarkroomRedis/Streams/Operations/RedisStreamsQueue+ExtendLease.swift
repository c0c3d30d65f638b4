import DarkroomQueue

extension RedisStreamsQueue {
    public func extendLease(_ delivery: JobDelivery) async throws -> Bool {
        guard let (lane, entryID) = StreamTag.parse(delivery.tag) else { return false }
        let arguments = ScriptArguments([RedisQueueKeys.group, entryID, delivery.consumer])
        let reply = try await redis {
            try await self.eval(StreamScripts.extendLease, keys: [self.keys.stream(lane)], arguments: arguments)
        }
        return reply.integer == 1
    }
}

extension StreamScripts {
    /// Renews a lease: `XCLAIM stream group consumer 0 id JUSTID` resets the entry's idle time
    /// without incrementing its delivery count — only while `consumer` still holds the entry.
    ///
    /// `KEYS`: the stream. `ARGV`: group, entry id, consumer. Returns 1 when renewed, else 0.
    static let extendLease = RedisScript(
        """
        local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)[1]
        if not pending or pending[2] ~= ARGV[3] then return 0 end
        redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
        return 1
        """)
}
