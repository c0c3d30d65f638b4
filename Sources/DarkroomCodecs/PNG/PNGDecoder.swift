import CSpng
import DarkroomChains
import DarkroomCore

/// Decodes PNG (every colour type and bit depth, tRNS, Adam7) with libspng to a premultiplied
/// RGBA8 `Bitmap`, converting an embedded iCCP profile to sRGB (or, with `DecodeOptions.keep`,
/// keeping an RGB one, and collecting eXIf and the `XML:com.adobe.xmp` iTXt).
///
/// - The header is checked against `DecodeLimits` before any pixel memory exists, and libspng is
///   given its own image and chunk limits as a second line (`PNGLimits`), so neither a
///   100000×100000 header nor a zlib bomb in iCCP/zTXt/iTXt costs memory or time.
/// - Strict (default): a bad CRC, a truncated stream or damaged zlib data is an error, including
///   in the chunks after the image data up to IEND. Bytes after IEND are ignored.
/// - Lenient: CRCs and Adler-32 checksums are not verified; when the pixel data breaks off, the
///   rows decoded so far are kept and the rest are transparent (zero), also when the file ends
///   inside an IDAT chunk (`PNGTruncationRepair`). A file that yields no row is still an error.
/// - 16-bit samples are rounded to 8 bits, not truncated.
/// - gAMA, cHRM and sRGB chunks are ignored when there is no iCCP profile: the pixels are taken
///   as sRGB, as browsers and libvips do for untagged images.
/// - An APNG decodes as its default image, with `frameCount` 1.
public struct PNGDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .png }

    public func canDecode(_ bytes: [UInt8]) -> Bool {
        ImageFormat.sniff(bytes) == .png
    }

    public func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            let reader = try SpngReader(buffer: buffer, limits: limits, source: image.sourceName)
            let header = try Self.checkedHeader(reader, buffer: buffer, limits: limits)
            let hasTransparency = try reader.hasTransparencyChunk()
            let profile = try reader.iccProfile()
            return Self.info(header, hasTransparencyChunk: hasTransparency, hasProfile: profile != nil)
        }
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let source = image.sourceName
        let limits = options.limits
        var bytes = image.bytes
        if !limits.strict, let repaired = bytes.withUnsafeBytes(PNGTruncationRepair.repaired) {
            bytes = repaired
        }
        let decoded = try PinnedBytes.with(bytes) { buffer throws(CodecError) in
            // The reader keeps `buffer`'s address: everything that reads the PNG stays in here.
            let reader = try SpngReader(buffer: buffer, limits: limits, source: source)
            let header = try Self.checkedHeader(reader, buffer: buffer, limits: limits)
            let hasTransparency = try reader.hasTransparencyChunk()
            let profile = try reader.iccProfile()
            let info = Self.info(header, hasTransparencyChunk: hasTransparency, hasProfile: profile != nil)
            let bitmap = try PNGPixelDecoding.decode(
                reader, header: header, hasAlpha: info.hasAlpha,
                bitmapLimits: options.bitmapLimits, strict: limits.strict)
            // After the pixels: eXIf and iTXt may follow the image data.
            let metadata = ImageMetadata(
                exif: options.keep.needsEXIF ? reader.exif() : nil, xmp: options.keep.contains(.xmp) ? reader.xmp() : nil)
            return (bitmap: bitmap, info: info, profile: profile, metadata: metadata)
        }
        var bitmap = decoded.bitmap
        var metadata = decoded.metadata
        if let profile = decoded.profile {
            metadata.icc = try ColorProfilePolicy.apply(
                &bitmap, profile: profile, source: source, strict: limits.strict, keep: options.keep.contains(.icc))
        }
        return DecodedImage(bitmap: bitmap, info: decoded.info, metadata: metadata)
    }

    /// The IHDR, checked against `limits`. When libspng itself refuses the size (zero, or over the
    /// image limits it was given), the declared numbers are read from the raw IHDR and checked
    /// the same way, so every format reports an oversized header with the same code and words.
    static func checkedHeader(
        _ reader: borrowing SpngReader, buffer: UnsafeRawBufferPointer,
        limits: DecodeLimits
    ) throws(CodecError) -> spng_ihdr {
        let header: spng_ihdr
        do {
            header = try reader.header()
        } catch {
            if error.code == .invalidDimensions || error.code == .tooLarge, let declared = declaredSize(buffer) {
                try limits.check(declared, source: reader.source)
            }
            throw error
        }
        try limits.check(PixelSize(width: Int(header.width), height: Int(header.height)), source: reader.source)
        return header
    }

    /// Width and height as written in the first chunk, if it is an IHDR.
    static func declaredSize(_ bytes: UnsafeRawBufferPointer) -> PixelSize? {
        guard bytes.count >= 24, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else {
            return nil
        }
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        return PixelSize(width: word(16), height: word(20))
    }

    static func info(_ header: spng_ihdr, hasTransparencyChunk: Bool, hasProfile: Bool) -> ImageInfo {
        let colorType = Int(header.color_type)
        let alphaChannel =
            colorType == Int(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
            || colorType == Int(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue)
        return ImageInfo(
            format: .png,
            storedSize: PixelSize(width: Int(header.width), height: Int(header.height)),
            hasAlpha: alphaChannel || hasTransparencyChunk,
            hasICCProfile: hasProfile)
    }
}
