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
        let clock = ContinuousClock()
        let start = clock.now
        guard let decoder = animationDecoder(for: request) else { return try renderStill(request) }
        // One read of the header tells a still image from an animation, and serves either.
        let opened = try decoder.decodeFrames(request.source, options: limits.decodeOptions(hint: request.chain.decodeHint, keep: request.output.keep))
        switch consume opened {
        case .still(let decoded):
            return try renderStill(request, decoded: decoded, decodeTime: clock.now - start)
        case .animation(let frames):
            return try renderAnimation(request, frames: frames, openTime: clock.now - start)
        }
    }

    /// The decoder of an animated GIF or WebP source whose frames the output keeps: every frame
    /// is asked for, the output can hold an animation (WebP), and the coders decode the format.
    /// Nil when the source is still only its first frame's business.
    private func animationDecoder(for request: RenderRequest) -> (any AnimationDecoding)? {
        guard request.output.frames == .all, (request.output.format ?? .webp) == .webp,
            let decoder = AnimationDecoders.decoder(for: request.source.bytes),
            coders.decoders.contains(where: { $0.format == decoder.format })
        else { return nil }
        return decoder
    }

    /// The first (or only) frame, as a still image.
    private func renderStill(_ request: RenderRequest) throws -> RenderResult {
        let clock = ContinuousClock()
        let start = clock.now
        let decoded = try coders.decode(
            request.source, options: limits.decodeOptions(hint: request.chain.decodeHint, keep: request.output.keep))
        return try renderStill(request, decoded: decoded, decodeTime: clock.now - start)
    }

    /// The first (or only) frame, decoded in `decodeTime`, as a still image.
    private func renderStill(_ request: RenderRequest, decoded: DecodedImage, decodeTime: Duration) throws -> RenderResult {
        let clock = ContinuousClock()
        var timings = StageTimings(decode: decodeTime.inMilliseconds)

        var start = clock.now
        let context = ImageProcessingContext(decoder: coders, resources: request.resources)
        let bitmap: Bitmap
        switch try request.chain.process(.bitmap(decoded.bitmap), context: context) {
        case .bitmap(let result): bitmap = result
        case .data(let encoded): bitmap = try coders.decode(encoded, options: limits.decodeOptions()).bitmap
        }
        try limits.checkOutput(bitmap.size, source: request.source.sourceName)
        // From the processed pixels, before encoding; every kind, so the copy stored beside the
        // cached result serves any later request (docs/placeholders.md).
        var placeholders: Placeholders?
        if !request.output.placeholders.isEmpty { placeholders = try bitmap.placeholders(Set(PlaceholderKind.allCases)) }
        timings.process = (clock.now - start).inMilliseconds

        start = clock.now
        let format = CacheSerializer.outputFormat(
            requested: request.output.format, source: decoded.info.format,
            chainIntroducesTransparency: request.chain.introducesTransparency,
            resultIsOpaque: bitmap.isOpaque)
        var encoding = request.output.encoding
        if !request.output.keep.isEmpty {
            // The processors worked in the source's colour space when its profile was kept.
            encoding.embedded = decoded.metadata.prepared(keeping: request.output.keep)
        }
        let bytes = try coders.encoder(for: format).encode(bitmap, options: encoding)
        timings.encode = (clock.now - start).inMilliseconds

        return RenderResult(
            bytes: bytes, format: format, size: bitmap.size, source: decoded.info, timings: timings, placeholders: placeholders)
    }

    /// Every frame of an animated GIF or WebP (opened in `openTime`) through the chain, into an
    /// animated WebP.
    ///
    /// Frames stream: a group of up to 2 × cores frames is decoded (in order: each frame is
    /// composited on the one before), processed at once on the idle cores, then encoded at once
    /// on them and kept in order, so memory does not grow with the frame count.
    private func renderAnimation(_ request: RenderRequest, frames opened: consuming AnimationFrameReader, openTime: Duration) throws -> RenderResult {
        let source = request.source
        let options = limits.decodeOptions()
        let clock = ContinuousClock()
        var timings = StageTimings(decode: openTime.inMilliseconds)
        var reader = opened
        let info = reader.info
        var encoder: AnimatedWebPEncoder?
        var size: PixelSize?
        let context = ImageProcessingContext(decoder: coders, resources: request.resources)
        let chain = request.chain
        let group = RowBands.animationGroupSize
        var encoding = request.output.encoding
        if !request.output.keep.isEmpty { encoding.embedded = reader.metadata.prepared(keeping: request.output.keep) }
        while true {
            var start = clock.now
            var frames: [AnimationFrame] = []
            while frames.count < group, let frame = try reader.next() { frames.append(frame) }
            timings.add((clock.now - start).inMilliseconds, to: \.decode)
            guard !frames.isEmpty else { break }

            start = clock.now
            let decoded = frames
            let processed = try RowBands.map(count: decoded.count) { index -> Bitmap in
                switch try chain.process(.bitmap(decoded[index].bitmap), context: context) {
                case .bitmap(let result): return result
                case .data(let encoded): return try coders.decode(encoded, options: options).bitmap
                }
            }
            timings.add((clock.now - start).inMilliseconds, to: \.process)

            start = clock.now
            for (frame, bitmap) in zip(decoded, processed) {
                if encoder == nil {
                    try limits.checkOutput(bitmap.size, source: source.sourceName)
                    size = bitmap.size
                    encoder = try AnimatedWebPEncoder(canvasSize: bitmap.size, loopCount: info.loopCount, options: encoding)
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
            timings.add((clock.now - start).inMilliseconds, to: \.encode)
        }
        // Lenient mode can end an animation before its first frame; the still decoder then keeps
        // what it can of that frame.
        guard let finishing = encoder.take(), let size else { return try renderStill(request) }
        let start = clock.now
        let bytes = try finishing.finish()
        timings.add((clock.now - start).inMilliseconds, to: \.encode)
        let header = ImageInfo(
            format: info.format, storedSize: info.canvasSize, frameCount: info.frameCount, hasAlpha: info.hasAlpha)
        return RenderResult(bytes: bytes, format: .webp, size: size, source: header, timings: timings, processedFirstFrameOnly: false)
    }
}
