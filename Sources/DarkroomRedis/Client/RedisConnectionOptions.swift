import DarkroomSystem

/// Timeouts and reconnect policy for a `RedisConnection`.
public struct RedisConnectionOptions: Sendable, Equatable {
    /// How long one connect attempt may take (TCP connect or unix socket), AUTH and SELECT included.
    public var connectTimeout: Duration
    /// How long a command may wait for its reply, unless the call overrides it (blocking reads).
    public var commandTimeout: Duration
    /// Connect attempts before `connectionFailed` is thrown (at least 1). Attempts after the first
    /// wait an exponential backoff with jitter.
    public var reconnectAttempts: Int
    /// The first backoff delay; each later one doubles, up to `maximumBackoff`.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    /// Pipelines longer than this are sent in chunks of this many commands (each chunk one round
    /// trip), so a million-command pipeline does not build one giant buffer.
    public var pipelineChunk: Int

    public init(
        connectTimeout: Duration = .seconds(5), commandTimeout: Duration = .seconds(30),
        reconnectAttempts: Int = 6, initialBackoff: Duration = .milliseconds(50),
        maximumBackoff: Duration = .seconds(2), pipelineChunk: Int = 16_384
    ) {
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.reconnectAttempts = max(1, reconnectAttempts)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.pipelineChunk = max(1, pipelineChunk)
    }

    /// The delay before connect attempt `attempt` (1 is the first retry): "equal jitter" — half
    /// the exponential delay plus a random part up to the other half, so a fleet of workers that
    /// lost Redis together does not reconnect in lockstep.
    public func backoff(beforeAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let base = initialBackoff * (1 << exponent)
        let capped = base > maximumBackoff ? maximumBackoff : base
        let half = capped / 2
        let nanos = half.saturatingNanoseconds
        return half + .nanoseconds(nanos > 0 ? Int64.random(in: 0...nanos) : 0)
    }
}
