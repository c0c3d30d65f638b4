import DarkroomCore

/// A decoder that can also read every frame of an animation (GIF and WebP).
public protocol AnimationDecoding: ImageDecoding {
    /// Reads what an animation reader would know before its first frame, checking the limits
    /// (`maxFrames`, `maxAnimationPixels`, the canvas) the same way; decodes no frame.
    func readAnimationInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> AnimationInfo
    /// A reader of the composited frames, opened once the header passed `options.limits`.
    /// `options.hint` does not apply (frames are decoded at the canvas size);
    /// `options.bitmapLimits` bounds each frame's bitmap. A still image reads as one frame.
    func animationFrames(of image: EncodedImage, options: DecodeOptions) throws(CodecError) -> AnimationFrameReader
    /// Reads the header once, then decodes a still image (`options.hint` applies) or opens a
    /// reader of an animation's frames (checked as `readAnimationInfo` checks them; the hint
    /// does not apply). For a caller that does not know which the file is, such as the renderer:
    /// a still image's header is not read again by the decoder.
    func decodeFrames(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedFrames
}

/// A file of a format that can animate, read by `AnimationDecoding.decodeFrames`: decoded when
/// it holds one frame, ready to read frame by frame when it holds more.
public enum DecodedFrames: ~Copyable {
    /// One frame, decoded as `ImageDecoding.decode` decodes it.
    case still(DecodedImage)
    /// Two frames or more, none decoded yet.
    case animation(AnimationFrameReader)
}

/// Picks the animation decoder for a file by its first bytes.
public enum AnimationDecoders {
    /// The formats whose frames can be read.
    public static let all: [any AnimationDecoding] = [GIFDecoder(), WebPDecoder()]

    /// The decoder for `bytes`, or nil when the data is neither GIF nor WebP.
    public static func decoder(for bytes: [UInt8]) -> (any AnimationDecoding)? {
        all.first { $0.canDecode(bytes) }
    }

    /// A frame reader for `image`, whichever of GIF and WebP it is.
    public static func frames(of image: EncodedImage, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> AnimationFrameReader {
        guard !image.bytes.isEmpty else {
            throw CodecError(.empty, source: image.sourceName, "the file is empty")
        }
        guard let decoder = decoder(for: image.bytes) else {
            throw CodecError(
                .unknownFormat, source: image.sourceName,
                "not an animated format: only GIF and WebP frames can be read (convert the file to one of them)")
        }
        return try decoder.animationFrames(of: image, options: options)
    }
}
