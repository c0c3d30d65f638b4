import DarkroomCore
import DarkroomSystem

/// One output of several made from one source (`ImagePipeline.retrieveRenditions`).
public struct RenditionRequest: Sendable {
    /// The rendition's name (for messages).
    public var name: String
    public var chain: ProcessorChain
    /// How it is encoded. Renditions are still images: `frames` is always `.first`.
    public var output: OutputOptions

    public init(name: String, chain: ProcessorChain, output: OutputOptions = OutputOptions()) {
        self.name = name
        self.chain = chain
        self.output = output
        self.output.frames = .first
    }
}

/// What `retrieveRenditions` made.
public struct RenditionsResult: Sendable {
    /// Each rendition's result (from a cache or this decode), or why it failed, in order.
    public var results: [Result<ImageResult, any Error>]
    /// Each rendition's result cache key (`RenditionDecode.key`), in order.
    public var keys: [String]
    /// The hint of the shared decode (`RenditionDecode.sharedHint`).
    public var decodeHint: DecodeHint?
    /// Which renditions are made from which one's intermediate (`RenditionCascade`).
    public var cascade: RenditionCascade
    /// The job's stages: the lookups and the fetch (`fetch`), the one decode, the renditions'
    /// processing and encoding summed, and the cache writes.
    public var timings: StageTimings
    /// Where the source came from; nil when every rendition was in a cache.
    public var sourceOrigin: SourceOrigin?
}
