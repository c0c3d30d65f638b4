/// The Lua scripts of the Redis driver, one `static let` each so every process learns each sha once
/// (`RedisScript` loads on first use and again after `NOSCRIPT`). Each script is declared in the
/// file of the operation that calls it (`Operations/`), so the Swift and the Lua read together.
///
/// Every state change of a job is one script, because a script runs atomically in Redis: no other
/// client sees a half-done transition, so "publish the terminal event only if the entry was still
/// pending" holds across any number of workers. Scripts never read the clock: the caller passes its
/// `clock.now()` (the fleet's clocks are assumed NTP-synchronised; skew shifts delays and
/// heartbeat expiry by the skew, nothing else).
///
/// Conventions: `KEYS` are the fixed keys; per-job keys (`{p}:job:<id>`, `{p}:batch:<name>`) are
/// built from the prefix in `ARGV`. Events and records arrive as finished JSON from Swift, so
/// their bytes are exactly `JobEvent`'s and `Job`'s encoding (Lua's cjson would reorder keys and
/// escape slashes).
enum StreamScripts {}
