extension StreamScripts {
    /// Lua put in front of the scripts that change a batch's counts outside a job's own finish
    /// (cancel, retry of dead letters): `countInBatch(key, field, delta, ttl)` adds `delta` to
    /// `field` of the batch hash `key` and keeps the hash alive at least `ttl` ms more (an expiry
    /// is extended, never shortened), so both scripts update a batch the same way.
    static let countInBatchFunction = """
        local function countInBatch(key, field, delta, ttl)
          redis.call('HINCRBY', key, field, delta)
          if redis.call('PTTL', key) < tonumber(ttl) then redis.call('PEXPIRE', key, ttl) end
        end

        """
}
