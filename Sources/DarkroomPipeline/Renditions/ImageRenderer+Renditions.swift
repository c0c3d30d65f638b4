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
    /// Decodes `source` once with `hint` (`RenditionDecode.sharedHint`), then runs each
    /// rendition's chain on that bitmap and encodes it, the renditions at once on the cores no
    /// other image uses. Renditions are still images: an animated source gives its first frame.
    ///
    /// A rendition that fails (a chain error, an output over the limits) fails alone; the decode
    /// failing, or the processed renditions together holding more than
    /// `limits.maxRenditionPixels`, throws.
    public func renderRenditions(
        _ source: EncodedImage, hint: DecodeHint?, renditions: [(chain: ProcessorChain, output: OutputOptions)]
    ) throws -> RenditionsRender {
        let clock = ContinuousClock()
        let start = clock.now
        // `keep` is the job's, so every rendition asks the same of the one decode.
        let keep = renditions.reduce(into: MetadataKeep()) { $0.formUnion($1.output.keep) }
        let decoded = try coders.decode(source, options: limits.decodeOptions(hint: hint, keep: keep))
        let decodeMilliseconds = (clock.now - start).inMilliseconds
        let context = ImageProcessingContext(decoder: coders)
        let coders = self.coders
        let limits = self.limits

        let processed = RowBands.map(count: renditions.count) { index -> Result<(Bitmap, Double), any Error> in
            Result { () throws(any Error) -> (Bitmap, Double) in
                let begin = clock.now
                let bitmap: Bitmap
                switch try renditions[index].chain.process(.bitmap(decoded.bitmap), context: context) {
                case .bitmap(let result): bitmap = result
                case .data(let encoded): bitmap = try coders.decode(encoded, options: limits.decodeOptions()).bitmap
                }
                try limits.checkOutput(bitmap.size, source: source.sourceName)
                return (bitmap, (clock.now - begin).inMilliseconds)
            }
        }
        // Every processed rendition is in memory until it is encoded.
        let pixels = processed.reduce(0) { total, outcome in
            guard case .success(let (bitmap, _)) = outcome else { return total }
            return total + bitmap.width * bitmap.height
        }
        guard pixels <= limits.maxRenditionPixels else {
            throw RenderError.renditionPixels(source: source.sourceName, pixels: pixels, limit: limits.maxRenditionPixels)
        }

        let results = RowBands.map(count: renditions.count) { index -> Result<RenderResult, any Error> in
            processed[index].flatMap { bitmap, processMilliseconds in
                Result { () throws(any Error) -> RenderResult in
                    let begin = clock.now
                    let chain = renditions[index].chain
                    let output = renditions[index].output
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
