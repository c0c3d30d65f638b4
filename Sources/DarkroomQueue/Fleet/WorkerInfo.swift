import DarkroomSchema

/// What a live worker tells the fleet about itself in its heartbeats: who it is, how busy it can
/// be, what it has done, and which processors it can run — by name and version, and described by
/// their schemas. `enqueue` validates chains against the processors live workers offer, binding a
/// processor its own build lacks against the schema.
public struct WorkerInfo: Sendable, Hashable {
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
    /// The schema of each processor it can run (parameters, kinds, ranges, defaults). Empty from
    /// workers that predate schemas; a schema this build cannot read is left out, and its
    /// processor is then known by `processors` alone.
    public var schemas: [ProcessorSchema]
    /// Plugin module name → version, for every module it runs with, built in or loaded (empty
    /// from workers that predate plugin modules).
    public var modules: [String: String]
    /// The output formats it can write (`jpeg`, `png`, `webp`, `avif`, and any a plugin module adds);
    /// empty from workers that predate plugin modules.
    public var formats: [String]
    /// The features of the job record it honours (`Capabilities`), sorted; empty from workers
    /// that predate capabilities (which read only jobs that require nothing).
    public var capabilities: [String]
    /// The directories whose files it may read as sources (`--allow-file-root`, absolute; `/`
    /// when it reads any file); nil from workers that predate this key. `enqueue` refuses a file
    /// source outside every live worker's roots.
    public var fileRoots: [String]?
    /// The directories it may write outputs into (`--allow-output-root`, absolute); nil from
    /// workers that predate this key.
    public var outputRoots: [String]?
    /// The Darkroom version it runs.
    public var version: String
    public var startedAt: Timestamp
    /// When this information was sent.
    public var seenAt: Timestamp

    public init(
        name: String, host: String, pid: Int32, concurrency: Int, jobsDone: Int = 0,
        processors: [String: Int], schemas: [ProcessorSchema] = [], modules: [String: String] = [:], formats: [String] = [],
        capabilities: [String] = [], fileRoots: [String]? = nil, outputRoots: [String]? = nil, version: String, startedAt: Timestamp, seenAt: Timestamp = .now()
    ) {
        self.name = name
        self.host = host
        self.pid = pid
        self.concurrency = concurrency
        self.jobsDone = jobsDone
        self.processors = processors
        self.schemas = schemas
        self.modules = modules
        self.formats = formats
        self.capabilities = capabilities
        self.fileRoots = fileRoots
        self.outputRoots = outputRoots
        self.version = version
        self.startedAt = startedAt
        self.seenAt = seenAt
    }
}

extension WorkerInfo {
    /// Every capability it offers: its `capabilities`, `processor:<name>` for each processor and
    /// `format:<name>` for each output format. A job is for this worker when its `requires` are
    /// all in here.
    public var offers: Set<String> {
        Capabilities.offered(features: Set(capabilities), processors: processors.keys, formats: formats)
    }
}

/// The heartbeat record's JSON: the keys above; `schemas` is a list of `ProcessorSchema` records,
/// read leniently (`ReadableProcessorSchemas`) and absent from older workers' heartbeats.
extension WorkerInfo: Codable {
    enum CodingKeys: String, CodingKey {
        case name, host, pid, concurrency, jobsDone, processors, schemas, modules, formats, capabilities, fileRoots, outputRoots, version, startedAt, seenAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            host: try container.decode(String.self, forKey: .host),
            pid: try container.decode(Int32.self, forKey: .pid),
            concurrency: try container.decode(Int.self, forKey: .concurrency),
            jobsDone: try container.decode(Int.self, forKey: .jobsDone),
            processors: try container.decode([String: Int].self, forKey: .processors),
            schemas: try container.decodeIfPresent(ReadableProcessorSchemas.self, forKey: .schemas)?.schemas ?? [],
            modules: try container.decodeIfPresent([String: String].self, forKey: .modules) ?? [:],
            formats: try container.decodeIfPresent([String].self, forKey: .formats) ?? [],
            capabilities: try container.decodeIfPresent([String].self, forKey: .capabilities) ?? [],
            fileRoots: try container.decodeIfPresent([String].self, forKey: .fileRoots),
            outputRoots: try container.decodeIfPresent([String].self, forKey: .outputRoots),
            version: try container.decode(String.self, forKey: .version),
            startedAt: try container.decode(Timestamp.self, forKey: .startedAt),
            seenAt: try container.decode(Timestamp.self, forKey: .seenAt))
    }
}
