import CWebP
import DarkroomChains
import DarkroomCore
import DarkroomSystem

/// Decodes an animated WebP frame by frame: libwebp's demuxer finds the frames, each frame's
/// bitstream is decoded on its own (premultiplied, `MODE_rgbA`, the layout `Bitmap` stores), and
/// this session composites the frames in order on its canvas.
///
/// Frame bitstreams do not depend on each other (only the compositing does), so frames are
/// decoded ahead in groups at once on the idle cores (`RowBands.map`), and composited one at a
/// time as they are asked for. The compositing follows libwebp's `WebPAnimDecoder` to the byte:
/// - the canvas starts transparent;
/// - a frame either replaces its rectangle (no blending) or is blended over what is beneath,
///   `new + old × (256 − new alpha) >> 8` per premultiplied channel, as libwebp computes it;
/// - after it is shown, a frame that disposes to background clears its rectangle to transparent.
///
/// The demuxer keeps pointers into the file's bytes, so the session holds the `OwnedBytes`
/// and deletes the demuxer (in `deinit`) before they are released.
final class WebPAnimationSession: AnimationFrameSource {
    private let demuxer: OpaquePointer
    private let input: OwnedBytes
    private let canvasSize: PixelSize
    private let source: String
    private let strict: Bool
    private let bitmapLimits: BitmapLimits
    /// The ICC profile, applied to every frame (frames composite in the file's colour space).
    private let profile: [UInt8]?
    private let frameCount: Int
    /// What the next frame is drawn on: the last frame shown, after its disposal.
    private var canvas: [UInt8]
    private var framesDecoded = 0
    /// Frames decoded ahead and not yet composited, by frame index.
    private var ahead: [Int: Result<DecodedFrame, CodecError>] = [:]

    /// One frame's own pixels and where they go.
    private struct DecodedFrame: Sendable {
        var pixels: [UInt8]
        var rect: PixelRect
        var duration: Int
        var blends: Bool
        var disposesToBackground: Bool
    }

    /// Opens the demuxer. Call only once the container passed the limits.
    init(input: OwnedBytes, canvas: PixelSize, profile: [UInt8]?, options: DecodeOptions, source: String) throws(CodecError) {
        // The demuxer copies this struct (pointer and size), not its address.
        var data = WebPData(bytes: input.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), size: input.buffer.count)
        guard let demuxer = darkroom_webp_demux(&data) else {
            throw CodecError(
                .corrupt, source: source,
                "corrupt WebP animation: libwebp could not read its frames (a cut-short animation cannot be read even with --lenient)"
            )
        }
        guard Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)) == canvas.width,
            Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)) == canvas.height
        else {
            WebPDemuxDelete(demuxer)
            throw CodecError(.corrupt, source: source, "corrupt WebP animation: its canvas size is inconsistent")
        }
        self.demuxer = demuxer
        self.input = input
        self.canvasSize = canvas
        self.profile = profile
        self.source = source
        self.strict = options.limits.strict
        self.bitmapLimits = options.bitmapLimits
        self.frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        self.canvas = [UInt8](repeating: 0, count: canvas.width * canvas.height * 4)
    }

    deinit { WebPDemuxDelete(demuxer) }

    /// Frames decoded at once when the next one is not decoded yet.
    private var groupSize: Int { RowBands.animationGroupSize }

    func nextFrame() throws(CodecError) -> AnimationFrame? {
        guard framesDecoded < frameCount else { return nil }
        if ahead[framesDecoded] == nil { decodeAhead(from: framesDecoded) }
        guard let result = ahead.removeValue(forKey: framesDecoded) else { return nil }
        let frame: DecodedFrame
        switch result {
        case .success(let decoded): frame = decoded
        case .failure(let error):
            // Lenient: the frames before a damaged one are the animation.
            if !strict && framesDecoded >= 1 {
                framesDecoded = frameCount
                return nil
            }
            throw error
        }
        composite(frame)
        var bitmap = try CodecBitmap.make(width: canvasSize.width, height: canvasSize.height, limits: bitmapLimits, source: source) {
            bytes, bytesPerRow in
            guard let base = bytes.baseAddress else { return }
            canvas.withUnsafeBufferPointer { shown in
                for y in 0..<canvasSize.height {
                    (base + y * bytesPerRow).update(from: shown.baseAddress! + y * canvasSize.width * 4, count: canvasSize.width * 4)
                }
            }
        }
        if frame.disposesToBackground { clear(frame.rect) }
        bitmap.isOpaque = bitmap.scanIsOpaque()
        if let profile {
            try ColorProfilePolicy.convert(&bitmap, profile: profile, source: source, strict: strict)
        }
        framesDecoded += 1
        return AnimationFrame(bitmap: bitmap, durationMilliseconds: frame.duration)
    }

    /// Decodes frames `first ..< first + groupSize` at once and keeps them in `ahead`.
    private func decodeAhead(from first: Int) {
        let indices = Array(first..<min(frameCount, first + groupSize))
        // Each frame's bytes and placement, read from the demuxer on this thread.
        let frames = indices.map { frameFacts(index: $0) }
        let decoded = RowBands.map(count: frames.count) { Self.decode(frames[$0], source: source) }
        for (index, result) in zip(indices, decoded) { ahead[index] = result }
    }

    /// A frame as the demuxer describes it.
    private struct FrameFacts: @unchecked Sendable {
        // `@unchecked` is safe: `bytes` points into the file's bytes, which the session holds
        // (immutable) for as long as it exists, and the decode that reads them ends before
        // `decodeAhead` returns.
        var bytes: UnsafeRawBufferPointer?
        var number: Int
        var rect: PixelRect
        var duration: Int
        var blends: Bool
        var disposesToBackground: Bool
    }

    private func frameFacts(index: Int) -> FrameFacts {
        var iterator = WebPIterator()
        defer { WebPDemuxReleaseIterator(&iterator) }
        guard WebPDemuxGetFrame(demuxer, Int32(index + 1), &iterator) != 0 else {
            return FrameFacts(
                bytes: nil, number: index + 1, rect: PixelRect(x: 0, y: 0, width: 0, height: 0), duration: 0, blends: false, disposesToBackground: false)
        }
        let rect = PixelRect(
            x: Int(iterator.x_offset), y: Int(iterator.y_offset), width: Int(iterator.width), height: Int(iterator.height))
        return FrameFacts(
            bytes: UnsafeRawBufferPointer(start: iterator.fragment.bytes, count: iterator.fragment.size),
            number: index + 1, rect: rect, duration: max(0, Int(iterator.duration)),
            blends: iterator.blend_method == WEBP_MUX_BLEND,
            disposesToBackground: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND)
    }

    /// Decodes one frame's bitstream into its own premultiplied pixels.
    private static func decode(_ facts: FrameFacts, source: String) -> Result<DecodedFrame, CodecError> {
        let damaged = CodecError(
            .corrupt, source: source, "corrupt WebP animation: frame \(facts.number) could not be decoded (damaged bitstream)")
        let rect = facts.rect
        guard let bytes = facts.bytes?.baseAddress?.assumingMemoryBound(to: UInt8.self), rect.width > 0, rect.height > 0 else {
            return .failure(damaged)
        }
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let decoded = pixels.withUnsafeMutableBufferPointer { buffer -> Bool in
            var config = WebPDecoderConfig()
            guard darkroom_webp_init_decoder_config(&config) != 0 else { return false }
            // Premultiplied output into our buffer, as `WebPAnimDecoder` decodes onto its canvas.
            config.output.colorspace = MODE_rgbA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(rect.width * 4)
            config.output.u.RGBA.size = buffer.count
            defer { WebPFreeDecBuffer(&config.output) }
            return WebPDecode(bytes, facts.bytes!.count, &config) == VP8_STATUS_OK
        }
        guard decoded else { return .failure(damaged) }
        return .success(
            DecodedFrame(pixels: pixels, rect: rect, duration: facts.duration, blends: facts.blends, disposesToBackground: facts.disposesToBackground))
    }

    /// Draws `frame` on the canvas: replaces its rectangle, or blends over it.
    private func composite(_ frame: DecodedFrame) {
        let rect = clipped(frame.rect)
        guard rect.width > 0, rect.height > 0 else { return }
        let canvasWidth = canvasSize.width
        canvas.withUnsafeMutableBufferPointer { canvasBytes in
            frame.pixels.withUnsafeBufferPointer { framePixels in
                for y in 0..<rect.height {
                    let destination = canvasBytes.baseAddress! + ((rect.y + y) * canvasWidth + rect.x) * 4
                    let row = framePixels.baseAddress! + y * frame.rect.width * 4
                    guard frame.blends else {
                        destination.update(from: row, count: rect.width * 4)
                        continue
                    }
                    for x in 0..<rect.width {
                        let p = row + x * 4
                        let d = destination + x * 4
                        let alpha = UInt32(p[3])
                        if alpha == 255 {
                            d.update(from: p, count: 4)
                        } else {
                            // libwebp's premultiplied blend: new + (old × (256 − new alpha)) >> 8.
                            let keep = 256 - alpha
                            for c in 0..<4 {
                                d[c] = UInt8(truncatingIfNeeded: UInt32(p[c]) + ((UInt32(d[c]) * keep) >> 8))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Clears `rect` of the canvas to transparent (dispose to background).
    private func clear(_ rect: PixelRect) {
        let rect = clipped(rect)
        guard rect.width > 0, rect.height > 0 else { return }
        let canvasWidth = canvasSize.width
        canvas.withUnsafeMutableBufferPointer { bytes in
            for y in rect.y..<(rect.y + rect.height) {
                (bytes.baseAddress! + (y * canvasWidth + rect.x) * 4).update(repeating: 0, count: rect.width * 4)
            }
        }
    }

    /// `rect` within the canvas (the demuxer already refuses frames that leave it).
    private func clipped(_ rect: PixelRect) -> PixelRect {
        let x = min(max(rect.x, 0), canvasSize.width)
        let y = min(max(rect.y, 0), canvasSize.height)
        return PixelRect(x: x, y: y, width: max(0, min(rect.width, canvasSize.width - x)), height: max(0, min(rect.height, canvasSize.height - y)))
    }
}
