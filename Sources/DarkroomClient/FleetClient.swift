import DarkroomChains
import DarkroomQueue
import DarkroomSystem

/// What a program needs to use a Darkroom fleet: enqueue jobs the workers will accept (checked and
/// canonicalised here first), wait for a batch, look a job up, cancel a batch. It works over any
/// queue driver — `RedisStreamsQueue` for a fleet, `MemoryQueue` in one process — and prints
/// nothing: the `darkroom` CLI is one program built on it. It links no image code: chains are
/// checked against processor specs (`DarkroomChains`), formats against names.
///
///     let client = FleetClient(queue: queue)
///     let defaults = EnqueueDefaults(chain: "downsample(400x400)", batch: "nightly", workingDirectory: "/shared")
///     let receipt = try await client.enqueue([JobRequest(source: "in/cat.jpg")], defaults: defaults)
///     let result = try await client.wait(for: "nightly", timeout: .seconds(600))
///
/// A bad request throws `EnqueueRefusal` (every problem, each with its place) and sends nothing.
public struct FleetClient: Sendable {
    /// What the client asks of a queue: the core contract, plus cancelling, the live workers (to
    /// accept processors only workers have) and batch progress. `MemoryQueue` and
    /// `RedisStreamsQueue` offer all of them.
    public typealias Queue = JobQueueDriver & CancellableJobQueue & WorkerRegistry & ProgressReportingQueue

    /// The queue jobs go to and events come from.
    public let queue: any Queue
    /// The processors chains are checked against fully; a processor missing here is accepted only
    /// when a live worker offers it. A program that loads plugin modules passes its runnable
    /// registry's `validationOnly` (`darkroom enqueue --plugins`).
    public let processors: ValidationOnlyRegistry
    /// The output formats jobs may ask for without asking the workers: the standard ones unless
    /// plugin modules add formats (`darkroom enqueue --plugins` passes its encoders' names).
    public var formats: OutputFormats = .standard
    /// Tells an unreachable queue, which `wait` rides out for a minute, from any other failure.
    public let isOutage: @Sendable (any Error) -> Bool
    /// The threads `prepare` looks source files up on (`stat` blocks, so never on the
    /// cooperative pool): by default two threads shared by every client in the process, started
    /// only when a job names a file, so a server preparing many requests at once stats at most
    /// two paths at a time.
    public var fileLookups: BlockingWorkPool = FleetClient.sharedFileLookups

    /// The process's default `fileLookups`.
    public static let sharedFileLookups = BlockingWorkPool(threadCount: 2)

    /// A client of the fleet behind `queue`. `isOutage` recognises the driver's outage errors;
    /// the default knows the `JobQueueError.unavailable` every driver reports them as.
    public init(
        queue: any Queue, processors: ValidationOnlyRegistry = StandardProcessorSpecs.catalog,
        isOutage: @escaping @Sendable (any Error) -> Bool = OutageTolerance.isQueueUnavailable
    ) {
        self.queue = queue
        self.processors = processors
        self.isOutage = isOutage
    }
}
