import CGif
import DarkroomCore

extension GIFDecoder: AnimationDecoding {
    /// Counts the frames and reads the loop count without decompressing any frame, checking the
    /// screen, each frame's size, `maxFrames` and `maxAnimationPixels`.
    public func readAnimationInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> AnimationInfo {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            let file = try GIFFile(bytes: buffer, source: image.sourceName)
            return try GIFAnimationSurvey.run(file, limits: limits)
        }
    }

    /// Reads every frame composited on the logical screen (disposal, transparency, offsets
    /// clipped to the screen), each with its delay as browsers play it (10 ms or less becomes
    /// 100 ms). The file is opened once and walked twice: once skipping all compressed data to
    /// check the limits, then, rewound, frame by frame as `next()` is called, with a group of
    /// frames decoded ahead at once when other cores are idle (`GIFAnimationSession`).
    ///
    /// Strict: a frame cut short or damaged is an error when it is reached. Lenient: the rows
    /// decoded so far are kept and the animation ends with that frame, so `next()` may return
    /// fewer frames than `info.frameCount`.
    public func animationFrames(of image: EncodedImage, options: DecodeOptions) throws(CodecError) -> AnimationFrameReader {
        try animationFrames(of: image, options: options, decodingAhead: true)
    }

    /// `animationFrames(of:options:)`, with the frames decoded ahead on idle cores or, when
    /// `decodingAhead` is false, each in order on the calling thread (for tests that compare).
    func animationFrames(of image: EncodedImage, options: DecodeOptions, decodingAhead: Bool) throws(CodecError) -> AnimationFrameReader {
        // giflib reads from the bytes on every call, so the session owns a copy of them.
        let bytes = OwnedBytes(copying: image.bytes)
        let file = try GIFFile(owned: bytes, source: image.sourceName)
        let info = try GIFAnimationSurvey.run(file, limits: options.limits)
        file.rewind()
        return Self.reader(file, bytes: bytes, info: info, options: options, decodingAhead: decodingAhead)
    }

    /// Surveys the file as an animation, then decodes its first frame when it has no other (the
    /// file is not opened again) or hands out its frames.
    public func decodeFrames(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedFrames {
        let bytes = OwnedBytes(copying: image.bytes)
        let file = try GIFFile(owned: bytes, source: image.sourceName)
        let info = try GIFAnimationSurvey.run(file, limits: options.limits)
        file.rewind()
        guard info.frameCount > 1 else { return .still(try Self.decodeFirstFrame(file, frameCount: 1, options: options)) }
        return .animation(Self.reader(file, bytes: bytes, info: info, options: options, decodingAhead: true))
    }

    private static func reader(
        _ file: consuming GIFFile, bytes: OwnedBytes, info: AnimationInfo, options: DecodeOptions, decodingAhead: Bool
    ) -> AnimationFrameReader {
        let session = GIFAnimationSession(
            file: file, bytes: bytes, frameCount: info.frameCount, limits: options.limits, bitmapLimits: options.bitmapLimits,
            decodesAhead: decodingAhead)
        return AnimationFrameReader(info: info, session: session)
    }
}
