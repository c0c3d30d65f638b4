import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

/// What one decode made for several renditions.
public struct RenditionsRender: Sendable {
    /// What the decoder learnt about the source.
    public var source: ImageInfo
    /// The size the shared decode produced (after shrink-on-load).
    public var decodedSize: PixelSize
    /// Milliseconds spent decoding, once.
    public var decodeMilliseconds: Double
    /// Each rendition's result (its own process and encode times), or why it failed, in order.
    public var results: [Result<RenderResult, any Error>]
}

extension ImageRenderer {
    /// Decodes `source` once with `hint` (`RenditionDecode.sharedHint`), then makes the renditions
    /// at `making` (all when nil; indices into `renditions`, whose results come in this order):
    /// runs each one's chain on that bitmap, or on its parent's intermediate as `cascade` says
    /// (`processRenditions`; nil: every rendition from the decode), and encodes it, the renditions
    /// at once on the cores no other image uses. Renditions are still images: an animated source
    /// gives its first frame.
    ///
    /// A rendition that fails (a chain error, an output over the limits) fails alone; the decode
    /// failing, or the processed renditions together holding more than
    /// `limits.maxRenditionPixels`, throws.
    public func renderRenditions(
        _ source: EncodedImage, hint: DecodeHint?, renditions: [(chain: ProcessorChain, output: OutputOptions)],
        cascade: RenditionCascade? = nil, making: [Int]? = nil, resources: ResolvedResources = ResolvedResources()
    ) throws -> RenditionsRender {
        let clock = ContinuousClock()
        let start = clock.now
        // `keep` is the job's, so every rendition asks the same of the one decode.
        let keep = renditions.reduce(into: MetadataKeep()) { $0.formUnion($1.output.keep) }
        let decoded = try coders.decode(source, options: limits.decodeOptions(hint: hint, keep: keep))
        let decodeMilliseconds = (clock.now - start).inMilliseconds
        let making = making ?? Array(renditions.indices)
        let processed = processRenditions(
            decoded.bitmap, chains: renditions.map(\.chain), cascade: cascade ?? RenditionCascade(count: renditions.count),
            making: making, sourceName: source.sourceName, resources: resources)
        // Every processed rendition is in memory until it is encoded.
        let pixels = processed.reduce(0) { total, outcome in
            guard case .success(let made) = outcome else { return total }
            return total + made.bitmap.width * made.bitmap.height
        }
        guard pixels <= limits.maxRenditionPixels else {
            throw RenderError.renditionPixels(source: source.sourceName, pixels: pixels, limit: limits.maxRenditionPixels)
        }

        let coders = self.coders
        let results = RowBands.map(count: making.count) { slot -> Result<RenderResult, any Error> in
            processed[slot].flatMap { bitmap, processMilliseconds in
                Result { () throws(any Error) -> RenderResult in
                    let begin = clock.now
                    let chain = renditions[making[slot]].chain
                    let output = renditions[making[slot]].output
                    let format = CacheSerializer.outputFormat(
                        requested: output.format, source: decoded.info.format,
                        chainIntroducesTransparency: chain.introducesTransparency, resultIsOpaque: bitmap.isOpaque)
                    var encoding = output.encoding
                    if !output.keep.isEmpty { encoding.embedded = decoded.metadata.prepared(keeping: output.keep) }
                    let bytes = try coders.encoder(for: format).encode(bitmap, options: encoding)
                    let timings = StageTimings(process: processMilliseconds, encode: (clock.now - begin).inMilliseconds)
                    return RenderResult(
                        bytes: bytes, format: format, size: bitmap.size, source: decoded.info, timings: timings,
                        processedFirstFrameOnly: decoded.info.isAnimated)
                }
            }
        }
        return RenditionsRender(
            source: decoded.info, decodedSize: decoded.bitmap.size, decodeMilliseconds: decodeMilliseconds, results: results)
    }
}
