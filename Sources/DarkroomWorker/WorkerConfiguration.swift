import DarkroomCore
import DarkroomOutput
import DarkroomQueue
import DarkroomSchema
import DarkroomSystem
import Glibc

/// Everything a `Worker` needs besides its queue and pipeline. The source policy, the disk cache
/// and the fleet leases are the pipeline's (`ImagePipeline.Configuration`).
public struct WorkerConfiguration: Sendable {
    /// The worker's queue consumer name, unique in the fleet; `host:pid` by default.
    public var name: String
    /// The most jobs run at once (default: the core count; `darkroom worker` uses
    /// `defaultConcurrency(cpus:)`).
    public var concurrency: Int
    /// After a graceful shutdown begins, how long jobs in hand may take to finish; the rest are
    /// left unacknowledged for other workers to reclaim. Default 25 s (Kubernetes gives 30 s).
    public var gracePeriod: Duration
    /// How often the worker tells the fleet it is alive (default 5 s).
    public var heartbeatInterval: Duration
    /// How long a heartbeat keeps the worker listed as live (default 3 × `heartbeatInterval`).
    public var heartbeatTTL: Duration
    /// How often a running job's queue lease is renewed; nil: a third of the queue's visibility
    /// timeout, so two renewals can fail before the job is considered stalled.
    public var leaseRenewInterval: Duration?
    /// How often the worker looks for stale jobs of dead workers; nil: half the visibility timeout.
    public var reclaimInterval: Duration?
    /// Delay before a transiently failed job is tried again (exponential, full jitter, 1 s … 5 min).
    public var retryBackoff: Backoff
    /// Delay before a failed queue operation (Redis unreachable) is tried again.
    public var queueBackoff: Backoff
    /// How long a job naming a processor this worker lacks waits before it is offered again.
    public var releaseDelay: Duration
    /// How long one `reserve` call waits for work when the queue is empty.
    public var reserveWait: Duration
    /// The most jobs it holds that have not started their work (their CPU work, or being served
    /// from a cache); nil: twice the pipeline's CPU threads (`--cpus`). A killed worker strands
    /// at most this many jobs that had not started; cache hits start at once, so they still run
    /// `concurrency` at a time.
    public var reserveAhead: Int?
    /// How long a `started` event may wait for another queue call to ride on before it is sent
    /// alone: a job computing longer than this is announced within this much of its start.
    public var startedEventDelay: Duration = .seconds(1)
    /// Where job outputs go: a job's `output` is the destination, its result is stored there
    /// before the job is acknowledged. `darkroom worker` passes a `VolumeSink` over its
    /// `--allow-output-root` directories (in a `RoutedOutputSink` with the object-storage sink for
    /// `s3://` destinations when S3 is configured, and then `features` holds `output:s3`); the
    /// default, a `VolumeSink` without roots, refuses every job with an `output`
    /// (`output.not-allowed`).
    public var outputs: any OutputSink
    /// The processors this worker can run (advertised in its heartbeats).
    public var processors: ProcessorRegistry
    /// The plugin modules it runs with, name → version (advertised in its heartbeats).
    public var modules: [String: String] = [:]
    /// The output formats its pipeline writes (advertised in its heartbeats, so `enqueue` can
    /// accept a plugin's format without the plugin). Empty: not advertised.
    public var formats: [String] = []
    /// The features of the job record it honours (`Capabilities.honouredFeatures` by default),
    /// advertised in heartbeats; with its processors, what it offers when it reserves jobs.
    public var features: Set<String> = Capabilities.honouredFeatures
    /// The least delay before retrying a job whose source host did not resolve
    /// (`UnresolvedHostRule`): the second lookup comes at least this long after the first.
    public var unresolvedRetryDelay: Duration = .seconds(30)
    /// The directories it reads file sources from and writes outputs into, advertised in
    /// heartbeats (`WorkerInfo.fileRoots`, `.outputRoots`) so `enqueue` can refuse a job no
    /// worker would accept; nil: not advertised. Advertising only: the pipeline's source policy
    /// and the output sink enforce them.
    public var fileRoots: [String]?
    public var outputRoots: [String]?
    /// The Darkroom version, advertised in heartbeats.
    public var version: String

    /// Jobs in flight by default for a pipeline with `cpus` CPU threads: 16, or twice the CPU
    /// threads when that is more.
    ///
    /// Jobs beyond the CPU threads overlap the queue's round trips and downloads: a worker
    /// answering from the cache does 2,600–2,800 jobs/s at 2 in flight on 2 cores and
    /// 7,300–11,300 at 16 (docs/benchmarks.md). They cost little memory, because the pipeline reads a
    /// local source only when a CPU thread is near (`ImagePipeline`), so a CPU-bound batch holds
    /// no more sources at 16 than at 2.
    public static func defaultConcurrency(cpus: Int) -> Int { max(16, 2 * cpus) }

    public init(
        name: String = WorkerConfiguration.defaultName, concurrency: Int = Cores.count,
        gracePeriod: Duration = .seconds(25), heartbeatInterval: Duration = .seconds(5),
        heartbeatTTL: Duration? = nil, leaseRenewInterval: Duration? = nil, reclaimInterval: Duration? = nil,
        retryBackoff: Backoff = .jobs, queueBackoff: Backoff = .queue,
        releaseDelay: Duration = .seconds(5), reserveWait: Duration = .seconds(1),
        outputs: any OutputSink = VolumeSink(roots: []), processors: ProcessorRegistry, version: String = "unknown"
    ) {
        self.name = name
        self.concurrency = max(1, concurrency)
        self.gracePeriod = max(gracePeriod, .zero)
        self.heartbeatInterval = max(heartbeatInterval, .milliseconds(10))
        self.heartbeatTTL = heartbeatTTL ?? self.heartbeatInterval * 3
        self.leaseRenewInterval = leaseRenewInterval
        self.reclaimInterval = reclaimInterval
        self.retryBackoff = retryBackoff
        self.queueBackoff = queueBackoff
        self.releaseDelay = max(releaseDelay, .zero)
        self.reserveWait = max(reserveWait, .milliseconds(1))
        self.outputs = outputs
        self.processors = processors
        self.version = version
    }

    /// `host:pid`.
    public static var defaultName: String { "\(hostName):\(getpid())" }

    /// This machine's host name (`gethostname`, no DNS lookup), or `localhost` when it has none.
    public static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// Processor name → version, as heartbeats advertise them.
    var processorVersions: [String: Int] {
        Dictionary(processors.all.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first })
    }

    /// The capabilities it reserves and reclaims with: its features, processors and output formats.
    var offers: Set<String> { Capabilities.offered(features: features, processors: processors.all.map(\.name), formats: formats) }

    /// Every processor's schema, by name, as heartbeats advertise them: what lets `enqueue`
    /// check a chain naming a processor its own build lacks.
    var processorSchemas: [ProcessorSchema] { processors.all.map(ProcessorSchema.init) }
}

/// This process.
enum WorkerProcess {
    static var id: Int32 { Int32(getpid()) }
}
