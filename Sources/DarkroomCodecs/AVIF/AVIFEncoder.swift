import CAvif
import DarkroomCore

/// Encodes a bitmap as AVIF with libavif 0.11 and the AV1 encoder it picks (aom in Debian's
/// build): 8-bit YUV at `AVIFSettings.quantizer(quality:)`, 4:2:0 below quality 90 and 4:4:4 from
/// it up (`AVIFSettings.fullChroma`), or lossless (4:4:4, identity matrix, quantizer 0) when
/// `EncodeOptions.lossless` is set; alpha kept (an alpha plane, at the
/// same quantizer, only when the bitmap is not opaque). Speed from `EncodeOptions.avifSpeed`, else
/// `AVIFSettings.defaultSpeed`. sRGB (CICP 1/13) with no metadata, unless `EncodeOptions.embedded`
/// carries a kept profile, Exif or XMP. The encoder's threads are the cores
/// no other image uses (`RowBands.threadBudget`), as the other encoders' bands are.
public struct AVIFEncoder: ImageEncoding {
    public init() {}

    public var format: ImageFormat { .avif }

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        let settings = AVIFSettings(options)
        let opaque = bitmap.isOpaque || bitmap.scanIsOpaque()
        let pixelFormat = settings.fullChroma ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        guard let image = avifImageCreate(UInt32(bitmap.width), UInt32(bitmap.height), 8, pixelFormat) else {
            throw Self.failure("libavif could not allocate the image (out of memory)")
        }
        defer { avifImageDestroy(image) }
        image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        // Lossless needs the RGB values themselves (identity); lossy uses BT.601's matrix, as
        // libavif and browsers default to.
        let matrix = options.lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601
        image.pointee.matrixCoefficients = avifMatrixCoefficients(matrix)
        image.pointee.yuvRange = AVIF_RANGE_FULL

        try convert(bitmap, opaque: opaque, into: image)
        if let embedded = options.embedded { Self.embed(embedded, in: image) }

        guard let encoder = avifEncoderCreate() else { throw Self.failure("libavif could not allocate an encoder (out of memory)") }
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.maxThreads = Int32(RowBands.threadBudget(rows: bitmap.height, width: bitmap.width))
        encoder.pointee.speed = Int32(settings.speed)
        encoder.pointee.minQuantizer = Int32(settings.quantizer)
        encoder.pointee.maxQuantizer = Int32(settings.quantizer)
        encoder.pointee.minQuantizerAlpha = Int32(settings.quantizer)
        encoder.pointee.maxQuantizerAlpha = Int32(settings.quantizer)

        var output = avifRWData(data: nil, size: 0)
        defer { avifRWDataFree(&output) }
        let result = avifEncoderWrite(encoder, image, &output)
        guard result == AVIF_RESULT_OK, let data = output.data else {
            throw Self.failure("libavif could not encode the image (\(String(cString: avifResultToString(result))))")
        }
        return Array(UnsafeBufferPointer(start: data, count: output.size))
    }

    /// Writes the kept profile (`colr` `prof`, which readers take over the CICP values), Exif and
    /// XMP items (`EncodeOptions.embedded`, already rewritten for the output).
    static func embed(_ metadata: ImageMetadata, in image: UnsafeMutablePointer<avifImage>) {
        if let icc = metadata.icc {
            icc.withUnsafeBufferPointer { avifImageSetProfileICC(image, $0.baseAddress, $0.count) }
            // The pixels are in the kept profile, not sRGB: the CICP values say "unspecified".
            image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_UNSPECIFIED)
            image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED)
        }
        if let exif = metadata.exif { exif.withUnsafeBufferPointer { avifImageSetMetadataExif(image, $0.baseAddress, $0.count) } }
        if let xmp = metadata.xmp { xmp.withUnsafeBufferPointer { avifImageSetMetadataXMP(image, $0.baseAddress, $0.count) } }
    }

    /// Fills the image's YUV (and alpha, when not opaque) planes from the bitmap, through one
    /// straight-alpha copy when it has transparency.
    private func convert(_ bitmap: Bitmap, opaque: Bool, into image: UnsafeMutablePointer<avifImage>) throws(CodecError) {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.depth = 8
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.ignoreAlpha = opaque ? 1 : 0
        let result: avifResult
        if opaque {
            result = bitmap.withUnsafeBytes { pixels in
                rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
                rgb.rowBytes = UInt32(bitmap.bytesPerRow)
                return avifImageRGBToYUV(image, &rgb)
            }
        } else {
            var straight = StraightAlpha.pixels(of: bitmap)
            result = straight.withUnsafeMutableBufferPointer { pixels in
                rgb.pixels = pixels.baseAddress
                rgb.rowBytes = UInt32(bitmap.width * 4)
                return avifImageRGBToYUV(image, &rgb)
            }
        }
        guard result == AVIF_RESULT_OK else {
            throw Self.failure("libavif could not convert the pixels to YUV (\(String(cString: avifResultToString(result))))")
        }
    }

    static func failure(_ message: String) -> CodecError {
        CodecError(.encodeFailed, source: "output", message)
    }
}
