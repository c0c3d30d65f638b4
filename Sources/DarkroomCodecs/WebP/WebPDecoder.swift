import CWebP
import DarkroomChains
import DarkroomCore

/// Decodes WebP (lossy, lossless, with alpha, animated) with libwebp to premultiplied RGBA,
/// straight into the bitmap's storage.
///
/// - The canvas size and frame count are read by the demuxer and checked against `DecodeLimits`
///   before any pixel memory is allocated.
/// - Shrink-on-load: with a decode hint, a still image is decoded by libwebp's scaler at
///   `WebPShrinkOnLoad.decodeSize` and `sizeBeforeShrinkOnLoad` records the full size.
/// - Animations decode their first frame onto a transparent canvas of the animation's size (no
///   shrink-on-load); `ImageInfo.frameCount` says how many frames there are.
/// - An ICCP profile is converted to sRGB (or kept, RGB only, with `DecodeOptions.keep`, which
///   also collects the EXIF and XMP chunks). EXIF orientation in a WebP is ignored (browsers
///   ignore it too; encoders apply orientation to the pixels).
/// - Strict (default): a file shorter than its RIFF header says, or a bitstream that ends early,
///   is `.truncated`. Lenient: the rows decoded before the data ended are kept, the rest are
///   transparent.
public struct WebPDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .webp }

    public func canDecode(_ bytes: [UInt8]) -> Bool {
        ImageFormat.sniff(bytes) == .webp
    }

    public func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            try WebPContainer(bytes: buffer, limits: limits, source: image.sourceName).info
        }
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let decoded = try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            // The demuxer and the frame's bitstream point into `buffer`: all decoding stays here.
            try Self.decodeFirstFrame(
                WebPContainer(bytes: buffer, limits: options.limits, source: image.sourceName), byteCount: buffer.count,
                options: options)
        }
        return try Self.convertingProfile(decoded, options: options, source: image.sourceName)
    }

    /// The first frame as decoded, before its ICC profile is applied, with the EXIF and XMP
    /// chunks `DecodeOptions.keep` asked for.
    typealias FirstFrame = (bitmap: Bitmap, info: ImageInfo, profile: [UInt8]?, metadata: ImageMetadata)

    /// Decodes the first frame of the file `container` was read from (`byteCount` bytes): a still
    /// image at its own or shrunk-on-load size, an animation's first frame on its canvas.
    static func decodeFirstFrame(
        _ container: borrowing WebPContainer, byteCount: Int, options: DecodeOptions
    ) throws(CodecError) -> FirstFrame {
        let source = container.source
        let strict = options.limits.strict
        if strict && !container.isComplete {
            throw CodecError(
                .truncated, source: source,
                "truncated WebP: the file has \(byteCount) bytes, fewer than its RIFF header declares")
        }
        let frame = try container.firstFrame()
        let bitmap =
            container.isAnimated
            ? try decodeOntoCanvas(frame, canvas: container.canvasSize, bitmapLimits: options.bitmapLimits, strict: strict, source: source)
            : try decodeStill(frame, hint: options.hint, bitmapLimits: options.bitmapLimits, strict: strict, source: source)
        let metadata = ImageMetadata(
            exif: options.keep.needsEXIF ? container.chunk("EXIF") : nil,
            xmp: options.keep.contains(.xmp) ? container.chunk("XMP ") : nil)
        return (bitmap: bitmap, info: container.info, profile: container.iccProfile(), metadata: metadata)
    }

    /// The decoded image, its ICC profile (if any) converted to sRGB, or kept when
    /// `options.keep` asks and it is an RGB profile.
    static func convertingProfile(_ decoded: FirstFrame, options: DecodeOptions, source: String) throws(CodecError) -> DecodedImage {
        var bitmap = decoded.bitmap
        var metadata = decoded.metadata
        if let profile = decoded.profile {
            metadata.icc = try ColorProfilePolicy.apply(
                &bitmap, profile: profile, source: source, strict: options.limits.strict, keep: options.keep.contains(.icc))
        }
        return DecodedImage(bitmap: bitmap, info: decoded.info, metadata: metadata)
    }

    /// A still image, decoded straight into a bitmap of its own (or its shrunk-on-load) size.
    static func decodeStill(
        _ frame: WebPFrame, hint: DecodeHint?, bitmapLimits: BitmapLimits, strict: Bool,
        source: String
    ) throws(CodecError) -> Bitmap {
        let fullSize = PixelSize(width: frame.rect.width, height: frame.rect.height)
        let scaled = WebPShrinkOnLoad.decodeSize(source: fullSize, hint: hint)
        let size = scaled ?? fullSize
        var outcome = WebPPixelDecoding.Outcome.complete
        var bitmap = try CodecBitmap.make(
            width: size.width, height: size.height, limits: bitmapLimits,
            source: source
        ) { bytes, bytesPerRow throws(CodecError) in
            guard let base = bytes.baseAddress else { return }
            outcome = try WebPPixelDecoding.decode(
                frame.bitstream, scaledTo: scaled, frameSize: fullSize,
                into: base, stride: bytesPerRow, strict: strict, source: source)
        }
        if case .partial = outcome {
            bitmap.isOpaque = false
        } else {
            // Without alpha libwebp writes 255 everywhere; with it, one pass over the alpha bytes.
            bitmap.isOpaque = !frame.hasAlpha || bitmap.scanIsOpaque()
        }
        if scaled != nil {
            bitmap.sizeBeforeShrinkOnLoad = fullSize
        }
        return bitmap
    }

    /// The first frame of an animation, on a transparent canvas of the animation's size.
    /// Disposal and blending do not matter for the first frame: it is drawn on an empty canvas.
    static func decodeOntoCanvas(
        _ frame: WebPFrame, canvas: PixelSize, bitmapLimits: BitmapLimits, strict: Bool,
        source: String
    ) throws(CodecError) -> Bitmap {
        var bitmap = try CodecBitmap.transparent(width: canvas.width, height: canvas.height, limits: bitmapLimits, source: source)
        let stride = bitmap.bytesPerRow
        let frameSize = PixelSize(width: frame.rect.width, height: frame.rect.height)
        let result: Result<WebPPixelDecoding.Outcome, CodecError> = bitmap.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return .success(.complete) }
            let origin = base + frame.rect.y * stride + frame.rect.x * 4
            do throws(CodecError) {
                return .success(
                    try WebPPixelDecoding.decode(
                        frame.bitstream, scaledTo: nil, frameSize: frameSize,
                        into: origin, stride: stride, strict: strict, source: source))
            } catch {
                return .failure(error)
            }
        }
        let outcome = try result.get()
        if case .partial = outcome {
            bitmap.isOpaque = false
        } else {
            let coversCanvas = frame.rect == PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
            bitmap.isOpaque = coversCanvas && (!frame.hasAlpha || bitmap.scanIsOpaque())
        }
        return bitmap
    }
}
