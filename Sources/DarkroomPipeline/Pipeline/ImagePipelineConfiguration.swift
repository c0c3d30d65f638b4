import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomSources

extension ImagePipeline {
    /// Everything a pipeline needs, as a value (Nuke's `ImagePipeline.Configuration`).
    public struct Configuration: Sendable {
        /// Decoders and encoders.
        public var coders: CoderRegistry = .standard
        /// Decode and output limits.
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

        public init() {}
    }
}
