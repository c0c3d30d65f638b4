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
        // libwebp reads from the bytes on every frame, so the session owns a copy of them.
        let owned = OwnedBytes(copying: image.bytes)
        let header = try Self.animationHeader(
            WebPContainer(bytes: owned.buffer, limits: options.limits, source: image.sourceName),
            byteCount: owned.buffer.count, options: options)
        return try Self.reader(owned, header: header, options: options, source: image.sourceName)
    }

    /// Reads the container once, then decodes the still image it holds (as `decode` does) or
    /// hands out the frames of its animation.
    public func decodeFrames(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedFrames {
        let source = image.sourceName
        let opened = try PinnedBytes.with(image.bytes) { buffer throws(CodecError) -> Opened in
            let container = try WebPContainer(bytes: buffer, limits: options.limits, source: source)
            guard container.frameCount > 1 else { return .still(try Self.decodeFirstFrame(container, byteCount: buffer.count, options: options)) }
            return .animation(try Self.animationHeader(container, byteCount: buffer.count, options: options))
        }
        switch opened {
        case .still(let decoded):
            return .still(try Self.convertingProfile(decoded, options: options, source: source))
        case .animation(let header):
            return .animation(try Self.reader(OwnedBytes(copying: image.bytes), header: header, options: options, source: source))
        }
    }

    /// What `decodeFrames` learns while the bytes are pinned.
    private enum Opened {
        case still(FirstFrame)
        case animation(AnimationHeader)
    }

    /// An animation's facts, the ICC profile its frames are converted from (nil when none, or when
    /// `keep: icc` keeps it), and what `DecodeOptions.keep` collected.
    typealias AnimationHeader = (info: AnimationInfo, profile: [UInt8]?, metadata: ImageMetadata)

    /// The container's facts and ICC profile, with every limit checked.
    private static func animationHeader(
        _ container: borrowing WebPContainer, byteCount: Int, options: DecodeOptions
    ) throws(CodecError) -> AnimationHeader {
        let limits = options.limits
        let source = container.source
        guard container.isComplete else {
            throw CodecError(
                .truncated, source: source,
                "truncated WebP: the file has \(byteCount) bytes, fewer than its RIFF header declares (a cut-short animation cannot be read)"
            )
        }
        try limits.checkAnimation(canvas: container.canvasSize, frameCount: container.frameCount, source: source)
        var metadata = ImageMetadata(
            exif: options.keep.needsEXIF ? container.chunk("EXIF") : nil,
            xmp: options.keep.contains(.xmp) ? container.chunk("XMP ") : nil)
        var profile = container.iccProfile()
        if let found = profile, options.keep.contains(.icc), ColorProfilePolicy.keepsProfile(found) {
            // Every frame stays in the profile's space, and the output carries it.
            metadata.icc = try ColorProfilePolicy.checkedKept(found, source: source, strict: limits.strict)
            profile = nil
        }
        return (container.animationInfo, profile, metadata)
    }

    /// A reader of the frames in `owned`, whose container gave `header`; the canvas is checked
    /// against the bitmap limits before libwebp's decoder (which allocates two canvases) exists.
    private static func reader(
        _ owned: OwnedBytes, header: AnimationHeader, options: DecodeOptions, source: String
    ) throws(CodecError) -> AnimationFrameReader {
        let canvas = header.info.canvasSize
        do {
            try options.bitmapLimits.check(width: canvas.width, height: canvas.height)
        } catch {
            throw CodecBitmap.codecError(error, source: source)
        }
        let session = try WebPAnimationSession(input: owned, canvas: canvas, profile: header.profile, options: options, source: source)
        return AnimationFrameReader(info: header.info, session: session, metadata: header.metadata)
    }
}
