import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

/// One image to render: encoded source bytes, a chain, and how to write the result.
public struct RenderRequest: Sendable {
    public var source: EncodedImage
    public var chain: ProcessorChain
    public var output: OutputOptions
    /// The decoded resources the chain declares (`ProcessorChain.resources`), fetched by the
    /// pipeline; processors read them from their context.
    public var resources: ResolvedResources

    public init(
        source: EncodedImage, chain: ProcessorChain, output: OutputOptions = OutputOptions(),
        resources: ResolvedResources = ResolvedResources()
    ) {
        self.source = source
        self.chain = chain
        self.output = output
        self.resources = resources
    }
}

/// How the result is encoded.
public struct OutputOptions: Sendable, Hashable {
    /// The format to write; nil lets `CacheSerializer` choose from the source.
    public var format: ImageFormat?
    public var encoding: EncodeOptions
    /// Which frames of an animated source are processed.
    public var frames: FrameMode
    /// What the output keeps of the source (a job's `keep`): its ICC profile instead of sRGB,
    /// its EXIF, XMP, or copyright. Empty (the default): upright sRGB, no metadata.
    public var keep: MetadataKeep
    /// The placeholders the result carries (docs/placeholders.md); empty for none. Not part of
    /// the result's cache key: they describe the same output, and are stored beside it.
    public var placeholders: Set<PlaceholderKind>

    public init(
        format: ImageFormat? = nil, encoding: EncodeOptions = EncodeOptions(), frames: FrameMode = .all, keep: MetadataKeep = [],
        placeholders: Set<PlaceholderKind> = []
    ) {
        self.format = format
        self.encoding = encoding
        self.frames = frames
        self.keep = keep
        self.placeholders = placeholders
    }
}

/// Which frames of an animated source (GIF, animated WebP) are processed.
public enum FrameMode: String, Sendable, Hashable {
    /// Every frame, written as an animated WebP (unless the output format has no animation, when
    /// only the first frame is written).
    case all
    /// Only the first frame, as a still image (`--first-frame-only`).
    case first
}

/// A rendered image.
public struct RenderResult: Sendable {
    /// The encoded output.
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var size: PixelSize
    /// What the decoder learnt about the source (format, size, frames).
    public var source: ImageInfo
    /// Decode, process and encode; fetch and store are the pipeline's.
    public var timings: StageTimings
    /// True when the source was an animation of which only the first frame was processed.
    public var processedFirstFrameOnly: Bool
    /// Every kind of placeholder of the output, when the request asked for any (computed from
    /// the processed pixels before encoding); nil otherwise.
    public var placeholders: Placeholders?

    public init(
        bytes: [UInt8], format: ImageFormat, size: PixelSize, source: ImageInfo, timings: StageTimings,
        processedFirstFrameOnly: Bool? = nil, placeholders: Placeholders? = nil
    ) {
        self.placeholders = placeholders
        self.bytes = bytes
        self.format = format
        self.size = size
        self.source = source
        self.timings = timings
        self.processedFirstFrameOnly = processedFirstFrameOnly ?? source.isAnimated
    }
}
