import CWebP
import DarkroomCore

/// Decodes an animated WebP frame by frame with libwebp's `WebPAnimDecoder`, which does the
/// compositing (frame offsets, alpha blending, dispose to transparent) on a canvas of its own
/// and hands it out premultiplied (`MODE_rgbA`), the layout `Bitmap` stores. Each frame is
/// copied from that canvas into a bitmap of its own, since libwebp reuses the canvas.
///
/// The decoder keeps pointers into the file's bytes, so the session holds the `OwnedBytes`
/// and deletes the decoder (in `deinit`) before they are released.
final class WebPAnimationSession: AnimationFrameSource {
    private let decoder: OpaquePointer
    private let input: OwnedBytes
    private let canvas: PixelSize
    private let source: String
    private let strict: Bool
    private let bitmapLimits: BitmapLimits
    /// The ICC profile, applied to every frame (libwebp composites in the file's colour space).
    private let profile: [UInt8]?
    /// The end time of the last frame handed out: WebP's timestamps are cumulative end times.
    private var lastTimestamp: Int32 = 0
    private var framesDecoded = 0

    /// Creates libwebp's decoder. Call only once the container passed the limits: libwebp
    /// allocates two canvases here, outside `BitmapLimits`.
    init(input: OwnedBytes, canvas: PixelSize, profile: [UInt8]?, options: DecodeOptions, source: String) throws(CodecError) {
        var decoderOptions = WebPAnimDecoderOptions()
        guard darkroom_webp_anim_decoder_options_init(&decoderOptions) != 0 else {
            throw CodecError(.unsupported, source: source, "the installed libwebp does not match the headers Darkroom was built with")
        }
        decoderOptions.color_mode = MODE_rgbA
        // Darkroom already runs one image per core; libwebp's own thread would oversubscribe.
        decoderOptions.use_threads = 0
        // The decoder's demuxer copies this struct (pointer and size), not its address.
        var data = WebPData(bytes: input.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), size: input.buffer.count)
        guard let decoder = darkroom_webp_anim_decoder_new(&data, &decoderOptions) else {
            throw CodecError(
                .corrupt, source: source,
                "corrupt WebP animation: libwebp could not read its frames (a cut-short animation cannot be read even with --lenient)"
            )
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == canvas.width, Int(info.canvas_height) == canvas.height
        else {
            WebPAnimDecoderDelete(decoder)
            throw CodecError(.corrupt, source: source, "corrupt WebP animation: its canvas size is inconsistent")
        }
        self.decoder = decoder
        self.input = input
        self.canvas = canvas
        self.profile = profile
        self.source = source
        self.strict = options.limits.strict
        self.bitmapLimits = options.bitmapLimits
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    func nextFrame() throws(CodecError) -> AnimationFrame? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var pixels: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
            // Lenient: the frames before a damaged one are the animation.
            if !strict && framesDecoded >= 1 { return nil }
            throw CodecError(
                .corrupt, source: source, "corrupt WebP animation: frame \(framesDecoded + 1) could not be decoded (damaged bitstream)")
        }
        let width = canvas.width
        var bitmap = try CodecBitmap.make(width: width, height: canvas.height, limits: bitmapLimits, source: source) { bytes, bytesPerRow in
            guard let base = bytes.baseAddress else { return }
            for y in 0..<canvas.height {
                (base + y * bytesPerRow).update(from: pixels + y * width * 4, count: width * 4)
            }
        }
        bitmap.isOpaque = bitmap.scanIsOpaque()
        if let profile {
            try ColorProfilePolicy.convert(&bitmap, profile: profile, source: source, strict: strict)
        }
        // Timestamps only grow in a valid file; a decreasing one is read as a zero duration.
        let duration = max(0, Int(timestamp) - Int(lastTimestamp))
        lastTimestamp = max(lastTimestamp, timestamp)
        framesDecoded += 1
        return AnimationFrame(bitmap: bitmap, durationMilliseconds: duration)
    }
}
