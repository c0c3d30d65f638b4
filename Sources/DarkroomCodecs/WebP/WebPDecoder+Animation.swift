import CWebP
import DarkroomCore

extension WebPDecoder: AnimationDecoding {
    /// Reads the container only: canvas, frame count, loop count and alpha, checked against
    /// the canvas limits, `maxFrames` and `maxAnimationPixels`.
    public func readAnimationInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> AnimationInfo {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            let container = try WebPContainer(bytes: buffer, limits: limits, source: image.sourceName)
            try limits.checkAnimation(canvas: container.canvasSize, frameCount: container.frameCount, source: image.sourceName)
            return container.animationInfo
        }
    }

    /// Reads every frame composited on the canvas by libwebp's `WebPAnimDecoder` (offsets,
    /// blending, disposal to transparent), with each frame's duration as stored (timestamps in
    /// the file are cumulative; a still image is one frame of duration 0). An embedded ICC
    /// profile is applied to every frame.
    ///
    /// The container is read and checked against the limits before libwebp's decoder exists
    /// (it allocates two canvases). A file cut short is `.truncated` in both modes: libwebp's
    /// animation decoder reads complete files only. Lenient: frames after a damaged one are
    /// dropped.
    public func animationFrames(of image: EncodedImage, options: DecodeOptions) throws(CodecError) -> AnimationFrameReader {
        let source = image.sourceName
        let limits = options.limits
        // libwebp reads from the bytes on every frame, so the session owns a copy of them.
        let owned = OwnedBytes(copying: image.bytes)
        let header = try Self.readHeader(owned.buffer, limits: limits, source: source)
        let canvas = header.info.canvasSize
        do {
            try options.bitmapLimits.check(width: canvas.width, height: canvas.height)
        } catch {
            throw CodecBitmap.codecError(error, source: source)
        }
        let session = try WebPAnimationSession(input: owned, canvas: canvas, profile: header.profile, options: options, source: source)
        return AnimationFrameReader(info: header.info, session: session)
    }

    /// The container's facts and ICC profile, with every limit checked.
    private static func readHeader(
        _ buffer: UnsafeRawBufferPointer, limits: DecodeLimits, source: String
    ) throws(CodecError) -> (info: AnimationInfo, profile: [UInt8]?) {
        let container = try WebPContainer(bytes: buffer, limits: limits, source: source)
        guard container.isComplete else {
            throw CodecError(
                .truncated, source: source,
                "truncated WebP: the file has \(buffer.count) bytes, fewer than its RIFF header declares (a cut-short animation cannot be read)"
            )
        }
        try limits.checkAnimation(canvas: container.canvasSize, frameCount: container.frameCount, source: source)
        return (container.animationInfo, container.iccProfile())
    }
}
