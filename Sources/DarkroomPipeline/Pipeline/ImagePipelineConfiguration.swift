import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

extension ImagePipeline {
    /// Everything a pipeline needs, as a value (Nuke's `ImagePipeline.Configuration`).
    public struct Configuration: Sendable {
        /// Decoders and encoders (a `PluginCatalog`'s, when plugins are loaded).
        public var coders: CoderRegistry = .standard
        /// The providers by scheme, made on the pipeline's network and file pools (a
        /// `PluginCatalog`'s, when plugins are loaded). Two may not share a scheme.
        public var providers: [ProviderFactory] = StandardProviders.factories
        /// Decode, per-bitmap and output limits, passed down to every decode and processor.
        public var limits: RenderLimits = RenderLimits()
        /// What sources may be fetched and how.
        public var sourcePolicy: SourcePolicy = SourcePolicy()
        /// The shared disk cache; nil computes every time (benchmarks, one-off runs).
        public var diskCache: DiskCache?
        /// Byte budget of the in-process memory cache for recently used originals and small
        /// results; 0 disables it.
        public var memoryCacheBytes: Int = 64 << 20
        /// Results larger than this are not kept in memory (they are on disk anyway).
        public var memoryCacheMaxResultBytes: Int = 1 << 20
        /// Originals larger than this are not kept in memory.
        public var memoryCacheMaxOriginalBytes: Int = 8 << 20
        /// Fetches in flight at once: network waits are cheap, so many.
        public var maxConcurrentFetches: Int = 32
        /// Decode/process/encode jobs at once: CPU-bound, so at most the core count.
        public var maxConcurrentProcessing: Int = Cores.count
        /// How long a permanently failed source is remembered (not fetched again).
        public var failedSourceMemory: Duration = .seconds(60)
        /// Fleet-wide leases (Redis in a fleet): with a disk cache, a result or network original
        /// that another worker is computing or downloading is waited for in the shared cache
        /// instead of being made twice. Ignored without `diskCache` (there is nothing shared to
        /// wait for); nil: every pipeline works on its own.
        public var leases: (any WorkLeases)?
        /// Lease lifetime and how often a waiter looks at the disk cache.
        public var leaseTiming: LeaseTiming = LeaseTiming()

        public init() {}
    }
}
