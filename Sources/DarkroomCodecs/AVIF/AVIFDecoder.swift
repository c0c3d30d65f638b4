import CAvif
import DarkroomChains
import DarkroomCore

/// Decodes AVIF (AV1 in HEIF) with libavif 0.11 and dav1d to an upright, premultiplied sRGB RGBA8
/// bitmap.
///
/// - Limits first: the size (`ispe`, or a sequence's track size) and the frame count
///   (`stsz`) are read by Darkroom's own bounds-checked walker (`HEIFHeader`) and checked against
///   `DecodeLimits` before libavif sees the file; libavif is also given the limits
///   (`imageSizeLimit`, `imageDimensionLimit`, `imageCountLimit`) for what the AV1 bitstream says.
/// - 8, 10 and 12-bit sources are converted to 8 bits by libavif; alpha (straight in AVIF) is
///   premultiplied as every decoder's output is.
/// - Orientation: `irot` and `imir` are applied here (libavif only reports them). An Exif
///   orientation inside the file is ignored, so nothing is turned twice.
/// - Colour: an ICC profile is converted to sRGB; without one, CICP primaries and transfer other
///   than sRGB's are converted through a profile built from them (`CICPProfile`). With
///   `DecodeOptions.keep` holding `.icc`, that profile is kept instead (`DecodedImage.metadata`),
///   and the Exif and XMP items are collected for `.exif`/`.copyright` and `.xmp`.
/// - A sequence (`avis`) decodes its first frame; `ImageInfo.frameCount` says how many there are,
///   and more than `DecodeLimits.maxFrames` is refused (`image.too-many-frames`).
/// - No shrink-on-load: AV1 has no reduced-resolution decode, so the full size is decoded.
public struct AVIFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .avif }

    public func canDecode(_ bytes: [UInt8]) -> Bool {
        HEIFBrand.format(of: bytes) == .avif
    }

    public func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        try Self.checkedHeader(image, limits: limits).1
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let (header, info) = try Self.checkedHeader(image, limits: options.limits)
        let source = image.sourceName
        let frame = try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            try AVIFFrameDecoding.firstFrame(buffer, header: header, options: options, source: source)
        }
        var bitmap = frame.bitmap
        var metadata = ImageMetadata(exif: frame.exif, xmp: frame.xmp)
        if let profile = frame.profile {
            // `keep: icc` keeps the file's profile (or the one its CICP values describe).
            metadata.icc = try ColorProfilePolicy.apply(
                &bitmap, profile: profile, source: source, strict: options.limits.strict, keep: options.keep.contains(.icc))
        }
        if frame.orientation != .up {
            do {
                bitmap = try bitmap.applying(frame.orientation)
            } catch let error as BitmapError {
                throw CodecBitmap.codecError(error, source: source)
            } catch {
                throw CodecError(.corrupt, source: source, "could not orient the image: \(error)")
            }
        }
        var decodedInfo = info
        decodedInfo.orientation = frame.orientation
        // What libavif decoded, as with the orientation: the header walk reads the primary item's
        // `ispe`, while libavif may decode a sequence's track instead (an `avis` file with both),
        // whose frames can have another size. The limits were checked on the decoded size too.
        decodedInfo.storedSize = frame.bitmap.size
        return DecodedImage(bitmap: bitmap, info: decodedInfo, metadata: metadata)
    }

    /// The header, checked against `limits`, and what it says as an `ImageInfo`.
    static func checkedHeader(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> (HEIFHeader, ImageInfo) {
        let header = try HEIFHeader(bytes: image.bytes, source: image.sourceName)
        try limits.check(header.size, source: image.sourceName)
        if header.frameCount > 1 {
            try limits.checkAnimation(canvas: header.size, frameCount: header.frameCount, source: image.sourceName)
        }
        let info = ImageInfo(
            format: .avif, storedSize: header.size, orientation: header.orientation, frameCount: header.frameCount,
            hasAlpha: header.hasAlpha, hasICCProfile: header.hasICCProfile)
        return (header, info)
    }
}
