import DarkroomQueue

/// What became of a batch by the time `wait` stopped.
public struct BatchWaitResult: Sendable {
    /// The batch waited for.
    public var batch: String
    /// The counts when the wait stopped; complete unless `timedOut`.
    public var progress: BatchProgress
    /// The timeout passed before every job ended.
    public var timedOut: Bool
    /// The first few failures (oldest first), five at most: the rest are in the event stream.
    public var failures: [BatchFailure]
    /// How long the wait took.
    public var elapsed: Duration
    /// How long the batch took, once every job has ended: from its first enqueue to its latest
    /// job's end (`BatchTimes`, kept by the queue). Nil while jobs remain, or when the queue keeps
    /// no batch times (a batch recorded before they were kept).
    public var duration: Duration?

    /// A result as `wait` makes it (also for tests of what prints it).
    public init(
        batch: String, progress: BatchProgress, timedOut: Bool, failures: [BatchFailure], elapsed: Duration,
        duration: Duration? = nil
    ) {
        self.batch = batch
        self.progress = progress
        self.timedOut = timedOut
        self.failures = failures
        self.elapsed = elapsed
        self.duration = duration
    }
}
