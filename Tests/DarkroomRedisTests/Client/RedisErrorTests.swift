import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import Testing

@Suite("RedisError: its code and its outage classification, read through ErrorSummary")
struct RedisErrorTests {
    @Test(
        "Out of reach, refused credentials and 'cannot serve now' replies are unavailable; a bad URL, a protocol error or a script bug are not",
        arguments: [
            (RedisError.connectionFailed(endpoint: "127.0.0.1:1", reason: "refused"), true, true),
            (RedisError.connectionLost("reset"), true, true),
            (RedisError.timeout("GET"), true, true),
            (RedisError.closed, true, false),
            (RedisError.authenticationFailed("WRONGPASS"), true, false),
            (RedisError.server("LOADING Redis is loading the dataset in memory"), true, true),
            (RedisError.server("WRONGTYPE Operation against a key"), false, false),
            (RedisError.invalidURL("no host"), false, false),
            (RedisError.protocolError("bad reply"), false, false),
        ])
    func outage(error: RedisError, unavailable: Bool, passing: Bool) {
        let summary = ErrorSummary(error)
        #expect(summary.code == "queue.redis")
        #expect(summary.isUnavailable == unavailable)
        // Only an outage that may pass is ridden out: refused credentials and a closed client are not.
        #expect(summary.isPassingOutage == passing)
    }

    @Test("A driver's unavailable queue is a passing outage; its other errors are not outages")
    func queueErrors() {
        #expect(ErrorSummary(JobQueueError(.unavailable, "down")).isPassingOutage)
        #expect(!ErrorSummary(JobQueueError(.invalidCursor, "bad")).isUnavailable)
        #expect(!ErrorSummary(CancellationError()).isUnavailable)
    }
}
