import DarkroomCore

/// Decodes an animation one composited frame at a time, in order, so a caller keeps only the
/// frames it needs (SDWebImage's animated coder, pull-based).
///
///     var reader = try GIFDecoder().animationFrames(of: image, options: options)
///     while let frame = try reader.next() { … }
///
/// Opening the reader has already checked the canvas, the frame count and the animation's
/// total pixels against `DecodeLimits`, before any frame was decoded. Each frame's bitmap is
/// its own value: keeping one costs a canvas, dropping it before asking for the next lets the
/// reader reuse its memory.
///
/// Non-copyable because it owns a C decoding session whose position two copies would share.
/// Not thread-safe, but it may move between threads (it is `Sendable`): one owner at a time.
public struct AnimationFrameReader: ~Copyable {
    /// The header-level facts, known before the first frame.
    public let info: AnimationInfo
    private let session: any AnimationFrameSource
    /// The source's profile (when `DecodeOptions.keep` kept it: the frames are in its space),
    /// EXIF and XMP, as asked; empty by default.
    public let metadata: ImageMetadata
    /// Frames handed out so far.
    public private(set) var framesRead = 0
    private var finished = false

    init(info: AnimationInfo, session: any AnimationFrameSource, metadata: ImageMetadata = ImageMetadata()) {
        self.info = info
        self.session = session
        self.metadata = metadata
    }

    /// The next frame, or nil after the last one. After an error, or once it has returned nil,
    /// the reader returns nil.
    public mutating func next() throws(CodecError) -> AnimationFrame? {
        guard !finished else { return nil }
        do throws(CodecError) {
            guard var frame = try session.nextFrame() else {
                finished = true
                return nil
            }
            frame.index = framesRead
            framesRead += 1
            return frame
        } catch {
            finished = true
            throw error
        }
    }

    /// Every remaining frame, in memory (see `AnimatedImage` for what that costs).
    public consuming func readAll() throws(CodecError) -> AnimatedImage {
        var frames: [AnimationFrame] = []
        frames.reserveCapacity(max(0, info.frameCount - framesRead))
        while let frame = try next() {
            frames.append(frame)
        }
        return AnimatedImage(canvasSize: info.canvasSize, loopCount: info.loopCount, frames: frames)
    }
}

// The session is a class only so the two formats share one reader type; the reader is its
// only owner and is non-copyable, so moving the reader moves the session whole, and the C
// libraries behind it (giflib, libwebp) keep no thread-local state.
extension AnimationFrameReader: @unchecked Sendable {}

/// One format's decoding session behind an `AnimationFrameReader`.
protocol AnimationFrameSource: AnyObject {
    /// The next composited frame (its `index` is set by the reader), or nil at the end.
    func nextFrame() throws(CodecError) -> AnimationFrame?
}
