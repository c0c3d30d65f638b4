extension StreamScripts {
    /// Lua put in front of every script that appends to the event stream: `eventMaxLen(eventsKey,
    /// retention)` is the `MAXLEN ~` to trim the stream to. While a coordinator is registered
    /// (`{p}:coordinator` exists) that is the coordinator's cap, far above the usual retention: the
    /// coordinator trims behind its own checkpoint (`XTRIM MINID`), so events it has not read stay,
    /// and the cap only bounds Redis's memory when it is gone for long. Otherwise it is `retention`.
    ///
    /// The coordinator's key is derived from the events key (`{p}:events` → `{p}:coordinator`),
    /// so every caller keeps passing the keys it passed before.
    static let eventMaxLenFunction = """
        local function eventMaxLen(eventsKey, retention)
          local cap = redis.call('HGET', string.sub(eventsKey, 1, -8) .. ':coordinator', 'cap')
          return cap or retention
        end

        """

    /// Appends events: `KEYS`: events stream. `ARGV`: retention, then one event JSON each.
    /// For the events no other script appends (`publish`, `batchEnqueued`), so they are trimmed
    /// the same way.
    static let appendEvents = RedisScript(
        eventMaxLenFunction + """
            local maxlen = eventMaxLen(KEYS[1], ARGV[1])
            for i = 2, #ARGV do
              redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', 'event', ARGV[i])
            end
            return #ARGV - 1
            """)
}
