import DarkroomChains
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
        if request.output.frames == .all, let animated = try renderAnimation(request) { return animated }
        return try renderStill(request)
    }

    /// The first (or only) frame, as a still image.
    private func renderStill(_ request: RenderRequest) throws -> RenderResult {
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

    /// Every frame of an animated GIF or WebP through the chain, into an animated WebP; nil when
    /// the source is not animated or the output format cannot hold an animation (then the still
    /// path writes the first frame).
    ///
    /// Frames stream: a group of up to 2 × cores frames is decoded (in order: each frame is
    /// composited on the one before), processed at once on the idle cores, then encoded at once
    /// on them and kept in order, so memory does not grow with the frame count.
    private func renderAnimation(_ request: RenderRequest) throws -> RenderResult? {
        let source = request.source
        guard let decoder = AnimationDecoders.decoder(for: source.bytes) else { return nil }
        let options = limits.decodeOptions()
        let info = try decoder.readAnimationInfo(source, limits: options.limits)
        guard info.frameCount > 1 else { return nil }
        let format = request.output.format ?? .webp
        guard format == .webp else { return nil }

        let clock = ContinuousClock()
        var timings = StageTimings()
        var reader = try decoder.animationFrames(of: source, options: options)
        var encoder: AnimatedWebPEncoder?
        var size: PixelSize?
        let context = ImageProcessingContext(decoder: coders)
        let chain = request.chain
        let group = RowBands.animationGroupSize
        while true {
            var start = clock.now
            var frames: [AnimationFrame] = []
            while frames.count < group, let frame = try reader.next() { frames.append(frame) }
            timings.decode += (clock.now - start).inMilliseconds
            guard !frames.isEmpty else { break }

            start = clock.now
            let decoded = frames
            let processed = try RowBands.map(count: decoded.count) { index -> Bitmap in
                switch try chain.process(.bitmap(decoded[index].bitmap), context: context) {
                case .bitmap(let result): return result
                case .data(let encoded): return try coders.decode(encoded, options: options).bitmap
                }
            }
            timings.process += (clock.now - start).inMilliseconds

            start = clock.now
            for (frame, bitmap) in zip(decoded, processed) {
                if encoder == nil {
                    try limits.checkOutput(bitmap.size, source: source.sourceName)
                    size = bitmap.size
                    encoder = try AnimatedWebPEncoder(canvasSize: bitmap.size, loopCount: info.loopCount, options: request.output.encoding)
                }
                guard bitmap.size == size else {
                    throw CodecError(
                        .invalidDimensions, source: source.sourceName,
                        "frame \(frame.index + 1) came out \(bitmap.width)x\(bitmap.height), unlike the first frame's \(size.map { "\($0.width)x\($0.height)" } ?? "?"); the chain must give every frame one size"
                    )
                }
            }
            // The group's frames are encoded at once on the idle cores, and kept in order.
            try encoder!.add(zip(decoded, processed).map { ($1, $0.durationMilliseconds) })
            timings.encode += (clock.now - start).inMilliseconds
        }
        guard let finishing = encoder.take(), let size else { return nil }
        let start = clock.now
        let bytes = try finishing.finish()
        timings.encode += (clock.now - start).inMilliseconds
        let header = ImageInfo(
            format: info.format, storedSize: info.canvasSize, frameCount: info.frameCount, hasAlpha: info.hasAlpha)
        return RenderResult(bytes: bytes, format: .webp, size: size, source: header, timings: timings, processedFirstFrameOnly: false)
    }
}
