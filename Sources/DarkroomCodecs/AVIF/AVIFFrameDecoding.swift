import CAvif
import DarkroomChains
import DarkroomCore

/// Runs libavif over an AVIF held in memory: parse, decode the first frame, convert its YUV (8, 10
/// or 12-bit, any subsampling) to straight RGBA8 written into the bitmap's storage, then
/// premultiply. Orientation and colour are reported, not applied: `AVIFDecoder` applies them.
enum AVIFFrameDecoding {
    /// The first frame as stored, and what must still be done to it.
    struct Frame {
        var bitmap: Bitmap
        /// `irot`/`imir` as libavif read them.
        var orientation: ImageOrientation
        /// The embedded ICC profile, or one built from CICP values that are not sRGB.
        var profile: [UInt8]?
        /// The Exif (as a TIFF structure) and XMP items, read only when `DecodeOptions.keep` asks.
        var exif: [UInt8]?
        var xmp: [UInt8]?
    }

    static func firstFrame(
        _ bytes: UnsafeRawBufferPointer, header: HEIFHeader, options: DecodeOptions, source: String
    ) throws(CodecError) -> Frame {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else {
            throw CodecError(.truncated, source: source, "AVIF file has no data")
        }
        guard let decoder = avifDecoderCreate() else {
            throw CodecError(.tooLarge, source: source, "libavif could not allocate a decoder (out of memory)")
        }
        defer { avifDecoderDestroy(decoder) }
        let limits = options.limits
        // libavif checks what the AV1 bitstream says against the same limits the header passed.
        decoder.pointee.imageSizeLimit = UInt32(clamping: limits.maxPixels)
        decoder.pointee.imageDimensionLimit = UInt32(clamping: limits.maxDimension)
        decoder.pointee.imageCountLimit = UInt32(clamping: max(1, limits.maxFrames))
        decoder.pointee.strictFlags = limits.strict ? AVIF_STRICT_ENABLED.rawValue : AVIF_STRICT_DISABLED.rawValue
        // Exif is read only to be kept (`keep: exif`/`copyright`): its orientation never applies,
        // since `irot`/`imir` alone orient a HEIF image.
        decoder.pointee.ignoreExif = options.keep.needsEXIF ? 0 : 1
        decoder.pointee.ignoreXMP = options.keep.contains(.xmp) ? 0 : 1
        decoder.pointee.maxThreads = Int32(RowBands.threadBudget(rows: header.size.height, width: header.size.width))

        try check(avifDecoderSetIOMemory(decoder, base, bytes.count), decoder, cutShort: header.isCutShort, source: source)
        try check(avifDecoderParse(decoder), decoder, cutShort: header.isCutShort, source: source)
        try check(avifDecoderNextImage(decoder), decoder, cutShort: header.isCutShort, source: source)
        guard let image = decoder.pointee.image else { throw CodecError(.corrupt, source: source, "libavif decoded no image") }
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        try limits.check(PixelSize(width: width, height: height), source: source)

        var conversion: avifResult = AVIF_RESULT_OK
        let bitmap = try StraightAlpha.bitmap(width: width, height: height, limits: options.bitmapLimits, source: source) {
            pixels, bytesPerRow throws(CodecError) in
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.depth = 8
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.pixels = pixels.baseAddress
            rgb.rowBytes = UInt32(bytesPerRow)
            conversion = avifImageYUVToRGB(image, &rgb)
        }
        try check(conversion, decoder, cutShort: header.isCutShort, source: source)
        return Frame(
            bitmap: bitmap, orientation: orientation(of: image.pointee), profile: profile(of: image.pointee),
            exif: options.keep.needsEXIF ? EXIFItem.tiff(in: Self.bytes(of: image.pointee.exif)) : nil,
            xmp: options.keep.contains(.xmp) ? Self.bytes(of: image.pointee.xmp) : nil)
    }

    static func bytes(of data: avifRWData) -> [UInt8]? {
        guard data.size > 0, let base = data.data else { return nil }
        return Array(UnsafeBufferPointer(start: base, count: data.size))
    }

    static func orientation(of image: avifImage) -> ImageOrientation {
        let flags = image.transformFlags
        let rotation = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle) : 0
        let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode) : nil
        return HEIFHeader.orientation(rotation: rotation, mirror: mirror)
    }

    /// The ICC profile when there is one (it takes precedence over CICP), else the CICP profile.
    static func profile(of image: avifImage) -> [UInt8]? {
        if image.icc.size > 0, let data = image.icc.data {
            return Array(UnsafeBufferPointer(start: data, count: image.icc.size))
        }
        return CICPProfile.profile(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics))
    }

    /// Throws Darkroom's code for a libavif result other than OK: `.truncated` for any failure of
    /// a file that ends inside a box (libavif reports most of those as a parse failure).
    static func check(
        _ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>, cutShort: Bool, source: String
    ) throws(CodecError) {
        guard result != AVIF_RESULT_OK else { return }
        let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let reason = String(cString: avifResultToString(result)) + (detail.isEmpty ? "" : ": \(detail)")
        switch result {
        case _ where cutShort, AVIF_RESULT_TRUNCATED_DATA:
            throw CodecError(.truncated, source: source, "truncated AVIF data (\(reason))")
        case AVIF_RESULT_NOT_IMPLEMENTED, AVIF_RESULT_NO_CODEC_AVAILABLE:
            throw CodecError(.unsupported, source: source, "AVIF uses a feature libavif does not support (\(reason))")
        case AVIF_RESULT_OUT_OF_MEMORY:
            throw CodecError(.tooLarge, source: source, "libavif ran out of memory decoding this image")
        default:
            throw CodecError(.corrupt, source: source, "corrupt AVIF (\(reason))")
        }
    }
}
