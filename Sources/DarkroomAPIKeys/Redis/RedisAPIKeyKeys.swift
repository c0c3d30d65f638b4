/// The Redis key names of the API keys, under the fleet's prefix (`{p}`, default `darkroom`).
///
/// | key | type | holds |
/// |---|---|---|
/// | `{p}:apikeys:key:<id>` | hash | `record` (the `APIKey` JSON without `revokedAt`), `digest` (hex SHA-256 of the token), `revokedAt` (ms since 1970, once revoked) |
/// | `{p}:apikeys:index` | list | the key ids, oldest first, for listing (a list, not a sorted set by creation time: two keys made in one millisecond keep their order) |
/// | `{p}:apikeys:bucket:<id>` | hash | the key's token bucket: `tokens`, `at` (µs of Redis `TIME`); expires once full again |
struct RedisAPIKeyKeys: Sendable {
    let prefix: String

    func key(_ id: String) -> String { "\(prefix):apikeys:key:\(id)" }
    var index: String { "\(prefix):apikeys:index" }
    func bucket(_ id: String) -> String { "\(prefix):apikeys:bucket:\(id)" }
}
