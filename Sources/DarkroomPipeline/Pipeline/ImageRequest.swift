import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import DarkroomSystem

/// One image to produce: a source, a chain, and how to encode the result.
public struct ImageRequest: Sendable {
    public var source: SourceReference
    public var chain: ProcessorChain
    public var output: OutputOptions
    /// Called once when the request stops waiting: its result is found in a cache (memory or
    /// disk), or its CPU work (the decode) begins on the pipeline's CPU pool. Not called when the
    /// request fails first, or gets its result from another request computing the same key. The
    /// worker counts by it the jobs it holds that have not started (`WorkerConfiguration.reserveAhead`)
    /// and times its `started` event; the kind tells it whether the work was a cache hit, which lets
    /// it reserve further ahead while hits last. Called on whatever thread reaches that point: keep it short.
    public var onWorkStart: (@Sendable (WorkKind) -> Void)?

    /// What a request's work turned out to be when it started (`onWorkStart`).
    public enum WorkKind: Sendable, Equatable {
        /// The result was found in the memory or disk cache: nothing to compute.
        case cacheHit
        /// Its CPU work (decode, chain, encode) began on the pipeline's CPU pool.
        case computation
    }

    public init(
        source: SourceReference, chain: ProcessorChain, output: OutputOptions = OutputOptions(),
        onWorkStart: (@Sendable (WorkKind) -> Void)? = nil
    ) {
        self.source = source
        self.chain = chain
        self.output = output
        self.onWorkStart = onWorkStart
    }

    /// The part of the result cache key that describes the encoding: two requests that differ
    /// only here produce different files.
    var outputKey: String {
        let e = output.encoding
        return "format=\(output.format?.rawValue ?? "auto");q=\(e.quality);progressive=\(e.progressive ? 1 : 0)"
            + ";lossless=\(e.lossless ? 1 : 0);background=\(e.background)"
            // Always present: results cached before animations were processed hold first frames.
            + ";frames=\(output.frames.rawValue)"
            // Only when asked for, so the keys of results that keep nothing stay as they were.
            + (output.keep.isEmpty ? "" : ";keep=\(output.keep.canonicalNames.joined(separator: "+"))")
            // Only AVIF keys name the encoder, speed and quantizer, so other formats' keys stay as they were.
            + (output.format == .avif ? AVIFSettings(e).cacheKeyPart : "")
    }

    /// The result cache key for a source whose original is cached under `sourceKey`:
    /// `sourceKey@chainIdentifier#outputKey` (Kingfisher's "source key @ processor identifier").
    func resultKey(sourceKey: String) -> String {
        "\(sourceKey)@\(chain.identifier)#\(outputKey)"
    }
}

/// Where the source bytes came from, for a computed result.
public enum SourceOrigin: String, Sendable, Codable {
    case memory, disk, network, local
}

/// The result record of `ImagePipeline.retrieve`.
public struct ImageResult: Sendable {
    /// The encoded image.
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var size: PixelSize
    /// Where the result lives in the disk cache, when there is one.
    public var cachePath: String?
    public var origin: CacheOutcome
    /// Where the source came from; nil for a cached result (the source was not needed).
    public var sourceOrigin: SourceOrigin?
    /// The source's header facts when it was decoded for this result.
    public var source: ImageInfo?
    /// Milliseconds per stage: every stage for a computed result; for a cached one the lookup
    /// (`fetch`) only.
    public var timings: StageTimings
    /// True when an animated source was processed as its first frame (known when it was computed).
    public var processedFirstFrameOnly: Bool
    /// The placeholders the request asked for (`OutputOptions.placeholders`), nil when it asked
    /// for none: from the render, from beside the cached result, or from the output decoded once.
    public var placeholders: Placeholders?

    public init(
        bytes: [UInt8], format: ImageFormat, size: PixelSize, cachePath: String?, origin: CacheOutcome,
        sourceOrigin: SourceOrigin?, source: ImageInfo?, timings: StageTimings, processedFirstFrameOnly: Bool? = nil
    ) {
        self.bytes = bytes
        self.format = format
        self.size = size
        self.cachePath = cachePath
        self.origin = origin
        self.sourceOrigin = sourceOrigin
        self.source = source
        self.timings = timings
        self.processedFirstFrameOnly = processedFirstFrameOnly ?? (source?.isAnimated ?? false)
    }
}
