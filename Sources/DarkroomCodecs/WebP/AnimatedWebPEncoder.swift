import CWebP
import DarkroomChains
import DarkroomCore
import Glibc

/// Writes an animated WebP frame by frame, so a caller that decodes, processes and encodes in
/// groups of frames never holds the whole animation.
///
///     var encoder = try AnimatedWebPEncoder(canvasSize: size, loopCount: 0, options: options)
///     try encoder.add(group)        // full-canvas frames with their durations, in order
///     let bytes = try encoder.finish()
///
/// - Every frame is a full canvas (as `AnimationFrameReader` produces them). Only the rectangle
///   that differs from the frame before is stored (its offsets rounded down to even, as WebP
///   requires), without blending and without disposal, so the canvas after each frame is exactly
///   that frame (up to the lossy encode).
/// - Each frame is an independent still encode (`WebPEncoder`'s settings: lossy at
///   `EncodeOptions.quality`, or lossless), so the frames of a group are encoded at once on the
///   idle cores (`RowBands.map`) and assembled in order with libwebp's mux. libwebp's own
///   `WebPAnimEncoder` works on one thread and tries two disposals per frame. Measured on the
///   benchmark animations (docs/benchmarks.md): where every pixel changes (a panning photo with
///   alpha) this takes 324 ms on two cores against its 544 ms on one, for the same bytes; where
///   small sprites move over a still background (the GIF) it takes the same wall time, twice the
///   CPU, for a file 4.7 % larger, since the stored rectangle spans both where a sprite was and
///   where it is.
/// - A frame identical to the one before is merged into it (the durations add up), so the file may
///   hold fewer frames than were added, with the same timing; a single frame is written as a
///   still WebP.
/// - Durations are whole milliseconds, 0 … 16,777,215 (WebP's 24-bit field); the loop count is
///   WebP's (0 = forever, up to 65,535).
public struct AnimatedWebPEncoder: Sendable {
    /// The size every frame must have.
    public let canvasSize: PixelSize
    /// Frames added so far.
    public private(set) var frameCount = 0
    private let loopCount: Int
    private let options: EncodeOptions
    private let stillEncoder: WebPEncoder
    /// The last frame added: the next frame stores only what differs from it.
    private var previous: Bitmap?
    /// The encoded frames so far, in order.
    private var encoded: [EncodedFrame] = []
    /// The sum of the durations so far (WebP players time with C ints).
    private var totalDuration = 0

    /// The longest duration one frame can have.
    public static let maxFrameDuration = 16_777_215

    /// One frame of the file: a still WebP of the changed rectangle, placed at its offset.
    private struct EncodedFrame: Sendable {
        var bitstream: [UInt8]
        var rect: PixelRect
        var duration: Int
    }

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
        self.canvasSize = canvasSize
        self.loopCount = loopCount
        self.options = options
        self.stillEncoder = WebPEncoder(method: method, losslessEffort: losslessEffort)
        // Fail now, not on the first frame, if the settings are invalid for this libwebp.
        let config = UnsafeMutablePointer<WebPConfig>.allocate(capacity: 1)
        defer { config.deallocate() }
        try stillEncoder.configure(config, options: options)
    }

    /// Adds `frame.bitmap` shown for `frame.durationMilliseconds`.
    public mutating func add(_ frame: AnimationFrame) throws(CodecError) {
        try add(frame.bitmap, durationMilliseconds: frame.durationMilliseconds)
    }

    /// Adds a full-canvas frame shown for `durationMilliseconds`.
    public mutating func add(_ bitmap: Bitmap, durationMilliseconds: Int) throws(CodecError) {
        try add([(bitmap, durationMilliseconds)])
    }

    /// Adds full-canvas frames in order, each shown for its duration; they are encoded at once on
    /// the cores no other image uses.
    public mutating func add(_ frames: [(bitmap: Bitmap, durationMilliseconds: Int)]) throws(CodecError) {
        var duration = totalDuration
        for (offset, frame) in frames.enumerated() {
            let number = frameCount + offset + 1
            guard frame.bitmap.size == canvasSize else {
                throw WebPEncoder.failure(
                    "frame \(number) is \(frame.bitmap.width)x\(frame.bitmap.height) but the animation is \(canvasSize.width)x\(canvasSize.height): give every frame the canvas size"
                )
            }
            guard (0...Self.maxFrameDuration).contains(frame.durationMilliseconds) else {
                throw WebPEncoder.failure(
                    "frame \(number) lasts \(frame.durationMilliseconds) ms; a WebP frame lasts 0…\(Self.maxFrameDuration) ms")
            }
            duration += frame.durationMilliseconds
            guard duration <= Int(Int32.max) else {
                throw WebPEncoder.failure("the animation would last more than \(Int32.max) ms, longer than WebP can time")
            }
        }
        let before = previous
        let first = frameCount
        let stillEncoder = stillEncoder
        let options = options
        let results = try RowBands.map(count: frames.count) { index throws(CodecError) -> EncodedFrame? in
            let bitmap = frames[index].bitmap
            let reference = index > 0 ? frames[index - 1].bitmap : before
            guard let rect = Self.changedRect(from: reference, to: bitmap) else { return nil }
            let bitstream = try stillEncoder.encode(bitmap, rect: rect, options: options, frameNumber: first + index + 1)
            return EncodedFrame(bitstream: bitstream, rect: rect, duration: frames[index].durationMilliseconds)
        }
        for (index, result) in results.enumerated() {
            if let result {
                encoded.append(result)
            } else {
                // Unchanged: the frame before is shown for longer.
                encoded[encoded.count - 1].duration += frames[index].durationMilliseconds
            }
        }
        previous = frames.last?.bitmap ?? previous
        frameCount += frames.count
        totalDuration = duration
    }

    /// Ends the animation and returns the file.
    public consuming func finish() throws(CodecError) -> [UInt8] {
        let assembled = try assemble()
        // The frames carry no metadata; the file gets what `options.embedded` asks for.
        guard let embedded = options.embedded else { return assembled }
        return try WebPMetadataMux.embed(embedded, into: assembled)
    }

    private func assemble() throws(CodecError) -> [UInt8] {
        guard let firstFrame = encoded.first else {
            throw WebPEncoder.failure("an animation needs at least one frame; none was added")
        }
        if encoded.count == 1 { return firstFrame.bitstream }
        guard let mux = darkroom_webp_mux_new() else {
            throw WebPEncoder.failure("libwebp could not start assembling the animation (out of memory)")
        }
        defer { WebPMuxDelete(mux) }
        for (index, frame) in encoded.enumerated() {
            let status = frame.bitstream.withUnsafeBufferPointer { bytes in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                info.x_offset = Int32(frame.rect.x)
                info.y_offset = Int32(frame.rect.y)
                info.duration = Int32(frame.duration)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                info.blend_method = WEBP_MUX_NO_BLEND
                // copy_data 1: the mux keeps its own copy, so the array may go.
                return WebPMuxPushFrame(mux, &info, 1)
            }
            guard status == WEBP_MUX_OK else {
                throw WebPEncoder.failure("libwebp could not add frame \(index + 1) to the animation (mux error \(status.rawValue))")
            }
        }
        // A hint players ignore (browsers and libwebp dispose to transparent); say so honestly.
        let parameters = WebPMuxAnimParams(bgcolor: 0, loop_count: Int32(loopCount))
        var status = withUnsafePointer(to: parameters) { WebPMuxSetAnimationParams(mux, $0) }
        guard status == WEBP_MUX_OK else { throw WebPEncoder.failure("libwebp refused the loop count (mux error \(status.rawValue))") }
        status = WebPMuxSetCanvasSize(mux, Int32(canvasSize.width), Int32(canvasSize.height))
        guard status == WEBP_MUX_OK else { throw WebPEncoder.failure("libwebp refused the canvas size (mux error \(status.rawValue))") }
        var output = WebPData()
        status = WebPMuxAssemble(mux, &output)
        guard status == WEBP_MUX_OK, let bytes = output.bytes, output.size > 0 else {
            throw WebPEncoder.failure("libwebp could not assemble the animation (mux error \(status.rawValue))")
        }
        defer { WebPDataClear(&output) }
        return Array(UnsafeBufferPointer(start: bytes, count: output.size))
    }

    /// The smallest rectangle holding every pixel of `current` that differs from `reference`,
    /// grown to even offsets; the whole canvas without a reference; nil when nothing differs.
    static func changedRect(from reference: Bitmap?, to current: Bitmap) -> PixelRect? {
        let whole = PixelRect(x: 0, y: 0, width: current.width, height: current.height)
        guard let reference else { return whole }
        let rowBytes = current.width * 4
        return current.withUnsafeBytes { now -> PixelRect? in
            reference.withUnsafeBytes { before -> PixelRect? in
                guard let a = now.baseAddress, let b = before.baseAddress else { return whole }
                var top = -1
                var bottom = -1
                var left = current.width
                var right = -1
                for y in 0..<current.height {
                    let rowA = a + y * current.bytesPerRow
                    let rowB = b + y * reference.bytesPerRow
                    guard memcmp(rowA, rowB, rowBytes) != 0 else { continue }
                    if top < 0 { top = y }
                    bottom = y
                    // Narrow from each side, a pixel (4 bytes) at a time, within the known bounds.
                    var x = 0
                    while x < left, memcmp(rowA + 4 * x, rowB + 4 * x, 4) == 0 { x += 1 }
                    left = min(left, x)
                    x = current.width - 1
                    while x > right, memcmp(rowA + 4 * x, rowB + 4 * x, 4) == 0 { x -= 1 }
                    right = max(right, x)
                }
                guard top >= 0 else { return nil }
                // WebP stores frame offsets halved: round them down to even.
                let x = left & ~1
                let y = top & ~1
                return PixelRect(x: x, y: y, width: right + 1 - x, height: bottom + 1 - y)
            }
        }
    }
}

extension WebPEncoder {
    /// Encodes a whole animation in memory (see `AnimatedWebPEncoder` for frame by frame).
    public func encode(_ animation: AnimatedImage, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        var encoder = try AnimatedWebPEncoder(
            canvasSize: animation.canvasSize, loopCount: animation.loopCount, options: options,
            method: method, losslessEffort: losslessEffort)
        try encoder.add(animation.frames.map { ($0.bitmap, $0.durationMilliseconds) })
        return try encoder.finish()
    }
}
