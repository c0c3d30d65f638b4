import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

/// Turns source bytes into an encoded result: decode (shrinking on load when the chain starts by
/// making the image smaller) → processors in order → pick the format → encode.
///
/// `render` is synchronous CPU work; callers in async code run it on a `BlockingWorkPool` so it
/// never occupies the cooperative pool. The renderer holds no mutable state and may be used from
/// many threads at once.
public struct ImageRenderer: Sendable {
    public var coders: CoderRegistry
    public var limits: RenderLimits

    public init(coders: CoderRegistry = .standard, limits: RenderLimits = RenderLimits()) {
        self.coders = coders
        self.limits = limits
    }

    public func render(_ request: RenderRequest) throws -> RenderResult {
        let clock = ContinuousClock()
        var timings = StageTimings()

        var start = clock.now
        let decoded = try coders.decode(request.source, options: limits.decodeOptions(hint: request.chain.decodeHint))
        timings.decode = (clock.now - start).inMilliseconds

        start = clock.now
        let context = ImageProcessingContext(decoder: coders)
        let bitmap: Bitmap
        switch try request.chain.process(.bitmap(decoded.bitmap), context: context) {
        case .bitmap(let result): bitmap = result
        case .data(let encoded): bitmap = try coders.decode(encoded, options: limits.decodeOptions()).bitmap
        }
        timings.process = (clock.now - start).inMilliseconds
        try limits.checkOutput(bitmap.size, source: request.source.sourceName)

        start = clock.now
        let format = CacheSerializer.outputFormat(
            requested: request.output.format, source: decoded.info.format,
            chainIntroducesTransparency: request.chain.introducesTransparency,
            resultIsOpaque: bitmap.isOpaque)
        let bytes = try coders.encoder(for: format).encode(bitmap, options: request.output.encoding)
        timings.encode = (clock.now - start).inMilliseconds

        return RenderResult(bytes: bytes, format: format, size: bitmap.size, source: decoded.info, timings: timings)
    }
}
