import DarkroomSystem

/// Timeouts and reconnect policy for a `RedisConnection`.
public struct RedisConnectionOptions: Sendable, Equatable {
    /// How long one connect attempt may take (TCP connect or unix socket), AUTH and SELECT included.
    public var connectTimeout: Duration
    /// How long a command may wait for its reply, unless the call overrides it (blocking reads).
    public var commandTimeout: Duration
    /// Connect attempts before `connectionFailed` is thrown (at least 1). Attempts after the first
    /// wait `reconnectBackoff`.
    public var reconnectAttempts: Int
    /// The wait before each further connect attempt: `initialBackoff` doubling to `maximumBackoff`,
    /// "equal jitter" (half the delay plus a random part up to the other half), so a fleet of
    /// workers that lost Redis together does not reconnect in lockstep.
    public var reconnectBackoff: Backoff
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
        self.reconnectBackoff = Backoff(initial: initialBackoff, cap: maximumBackoff, jitter: .equal)
        self.pipelineChunk = max(1, pipelineChunk)
    }

    /// The delay before connect attempt `attempt` (1 is the first retry).
    public func backoff(beforeAttempt attempt: Int) -> Duration {
        reconnectBackoff.delay(forAttempt: attempt)
    }
}
