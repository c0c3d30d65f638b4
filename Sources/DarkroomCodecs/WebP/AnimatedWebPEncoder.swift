import CWebP
import DarkroomCore

/// Writes an animated WebP with libwebp's `WebPAnimEncoder`, one frame at a time, so a caller
/// that decodes, processes and encodes frame by frame never holds the whole animation.
///
///     var encoder = try AnimatedWebPEncoder(canvasSize: size, loopCount: 0, options: options)
///     while let frame = try reader.next() { try encoder.add(frame) }
///     let bytes = try encoder.finish()
///
/// - Every frame is a full canvas (as `AnimationFrameReader` produces them); libwebp finds the
///   rectangle that changed and stores only that, blending or not, as is smallest.
/// - Lossy at `EncodeOptions.quality`, or lossless with `EncodeOptions.lossless`, with the
///   settings of `WebPEncoder` (method, lossless effort) for every frame. Alpha is kept.
/// - Durations are whole milliseconds, 0 … 16,777,215 (WebP's 24-bit field); the loop count is
///   WebP's (0 = forever, up to 65,535).
/// - libwebp merges a frame identical to the one before it into that frame (adding the
///   durations), so the file may hold fewer frames than were added, with the same timing; a
///   single frame is written as a still WebP.
///
/// Non-copyable because it owns the libwebp encoder; it may move between threads (one owner at
/// a time).
public struct AnimatedWebPEncoder: ~Copyable {
    /// The size every frame must have.
    public let canvasSize: PixelSize
    /// Frames added so far.
    public private(set) var frameCount = 0
    private let encoder: OpaquePointer
    /// libwebp reads the configuration on every `WebPAnimEncoderAdd`; on the heap so its address
    /// is stable.
    private let config: UnsafeMutablePointer<WebPConfig>
    /// The start time of the next frame: libwebp takes start times and derives durations.
    private var timestamp = 0

    /// The longest duration one frame can have.
    public static let maxFrameDuration = 16_777_215

    /// Starts an animation of `canvasSize` that plays `loopCount` times (0 = forever).
    public init(
        canvasSize: PixelSize, loopCount: Int = 0, options: EncodeOptions = EncodeOptions(),
        method: Int = WebPEncoder.defaultMethod, losslessEffort: Int = 75
    ) throws(CodecError) {
        guard canvasSize.width > 0, canvasSize.height > 0, canvasSize.width <= Int(WEBP_MAX_DIMENSION),
            canvasSize.height <= Int(WEBP_MAX_DIMENSION)
        else {
            throw WebPEncoder.failure(
                "WebP cannot store a \(canvasSize.width)x\(canvasSize.height) animation: each side must be 1…\(WEBP_MAX_DIMENSION) px")
        }
        guard (0...65_535).contains(loopCount) else {
            throw WebPEncoder.failure("a WebP loop count must be 0 (forever) … 65535 (got \(loopCount))")
        }
        let config = UnsafeMutablePointer<WebPConfig>.allocate(capacity: 1)
        config.initialize(to: WebPConfig())
        do throws(CodecError) {
            try WebPEncoder(method: method, losslessEffort: losslessEffort).configure(config, options: options)
        } catch {
            config.deallocate()
            throw error
        }
        var encoderOptions = WebPAnimEncoderOptions()
        guard darkroom_webp_anim_encoder_options_init(&encoderOptions) != 0 else {
            config.deallocate()
            throw WebPEncoder.versionMismatch
        }
        encoderOptions.anim_params.loop_count = Int32(loopCount)
        // A hint players ignore (browsers and libwebp dispose to transparent); say so honestly.
        encoderOptions.anim_params.bgcolor = 0
        // One kind of frame per animation, as asked: no lossy/lossless mixing behind the caller.
        encoderOptions.allow_mixed = 0
        guard let encoder = darkroom_webp_anim_encoder_new(Int32(canvasSize.width), Int32(canvasSize.height), &encoderOptions) else {
            config.deallocate()
            throw WebPEncoder.failure("libwebp could not start an animation encoder (out of memory)")
        }
        self.canvasSize = canvasSize
        self.encoder = encoder
        self.config = config
    }

    deinit {
        WebPAnimEncoderDelete(encoder)
        config.deallocate()
    }

    /// Adds `frame.bitmap` shown for `frame.durationMilliseconds`.
    public mutating func add(_ frame: AnimationFrame) throws(CodecError) {
        try add(frame.bitmap, durationMilliseconds: frame.durationMilliseconds)
    }

    /// Adds a full-canvas frame shown for `durationMilliseconds`.
    public mutating func add(_ bitmap: Bitmap, durationMilliseconds: Int) throws(CodecError) {
        let number = frameCount + 1
        guard bitmap.size == canvasSize else {
            throw WebPEncoder.failure(
                "frame \(number) is \(bitmap.width)x\(bitmap.height) but the animation is \(canvasSize.width)x\(canvasSize.height): give every frame the canvas size"
            )
        }
        guard (0...Self.maxFrameDuration).contains(durationMilliseconds) else {
            throw WebPEncoder.failure(
                "frame \(number) lasts \(durationMilliseconds) ms; a WebP frame lasts 0…\(Self.maxFrameDuration) ms")
        }
        // libwebp's timestamps are C ints.
        guard timestamp + durationMilliseconds <= Int(Int32.max) else {
            throw WebPEncoder.failure("the animation would last more than \(Int32.max) ms, longer than WebP can time")
        }
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        picture.initialize(to: WebPPicture())
        defer { picture.deallocate() }
        guard darkroom_webp_picture_init(picture) != 0 else { throw WebPEncoder.versionMismatch }
        picture.pointee.width = Int32(bitmap.width)
        picture.pointee.height = Int32(bitmap.height)
        // The animation encoder works on ARGB (it would convert YUV back, losing precision).
        picture.pointee.use_argb = 1
        defer { WebPPictureFree(picture) }
        try WebPEncoder.importPixels(of: bitmap, into: picture)
        // libwebp copies the frame, so the picture is freed straight after.
        guard WebPAnimEncoderAdd(encoder, picture, Int32(timestamp), config) != 0 else {
            throw WebPEncoder.failure("libwebp could not encode frame \(number) (\(lastError))")
        }
        timestamp += durationMilliseconds
        frameCount += 1
    }

    /// Ends the animation (the last frame's duration is known now) and returns the file.
    public consuming func finish() throws(CodecError) -> [UInt8] {
        guard frameCount > 0 else { throw WebPEncoder.failure("an animation needs at least one frame; none was added") }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw WebPEncoder.failure("libwebp could not end the animation (\(lastError))")
        }
        var output = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &output) != 0 else {
            throw WebPEncoder.failure("libwebp could not assemble the animation (\(lastError))")
        }
        defer { WebPDataClear(&output) }
        guard let bytes = output.bytes, output.size > 0 else { throw WebPEncoder.failure("libwebp produced no output") }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }

    private var lastError: String {
        guard let message = WebPAnimEncoderGetError(encoder), message.pointee != 0 else { return "no reason given" }
        return String(cString: message)
    }
}

// The encoder is owned by exactly one value (non-copyable), and libwebp keeps no thread-local
// state, so moving it to another thread is safe.
extension AnimatedWebPEncoder: @unchecked Sendable {}

extension WebPEncoder {
    /// Encodes a whole animation in memory (see `AnimatedWebPEncoder` for frame by frame).
    public func encode(_ animation: AnimatedImage, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        var encoder = try AnimatedWebPEncoder(
            canvasSize: animation.canvasSize, loopCount: animation.loopCount, options: options,
            method: method, losslessEffort: losslessEffort)
        for frame in animation.frames {
            try encoder.add(frame)
        }
        return try encoder.finish()
    }
}
