/// What a live worker tells the fleet about itself in its heartbeats: who it is, how busy it can
/// be, what it has done, and which processors (with their versions) it can run. `enqueue`
/// validates chains against the processors live workers offer.
public struct WorkerInfo: Sendable, Hashable, Codable {
    /// The worker's queue consumer name (`host:pid` unless given), unique in the fleet.
    public var name: String
    public var host: String
    public var pid: Int32
    /// The most jobs it runs at once.
    public var concurrency: Int
    /// Jobs it has finished (any outcome) since it started.
    public var jobsDone: Int
    /// Processor name → version, for every processor it can run.
    public var processors: [String: Int]
    /// The Darkroom version it runs.
    public var version: String
    public var startedAt: Timestamp
    /// When this information was sent.
    public var seenAt: Timestamp

    public init(
        name: String, host: String, pid: Int32, concurrency: Int, jobsDone: Int = 0,
        processors: [String: Int], version: String, startedAt: Timestamp, seenAt: Timestamp = .now()
    ) {
        self.name = name
        self.host = host
        self.pid = pid
        self.concurrency = concurrency
        self.jobsDone = jobsDone
        self.processors = processors
        self.version = version
        self.startedAt = startedAt
        self.seenAt = seenAt
    }
}
