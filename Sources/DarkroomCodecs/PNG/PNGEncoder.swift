import CSpng
import DarkroomCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Encodes a bitmap as an 8-bit PNG with libspng: RGB when every pixel is opaque (a quarter
/// smaller before compression), RGBA with straight alpha otherwise. No ancillary chunks are
/// written (no gAMA, no sRGB, no text, no time): output is plain sRGB, metadata stripped.
///
/// Rows are converted one at a time into a single row of scratch (unpremultiplied with rounding,
/// or with alpha dropped) and fed to libspng's progressive encoder, so encoding needs no second
/// full-size buffer.
public struct PNGEncoder: ImageEncoding {
    /// zlib level for the image data. 6 (zlib's default) was measured against 1, 3 and 9 on
    /// corpus thumbnails: see the codecs report in the README.
    public var compressionLevel: Int

    public init(compressionLevel: Int = PNGEncoder.defaultCompressionLevel) {
        self.compressionLevel = compressionLevel
    }

    public static let defaultCompressionLevel = 6

    public var format: ImageFormat { .png }

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        guard let ctx = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
            throw Self.failure("could not create a PNG encoder (out of memory)")
        }
        defer { spng_ctx_free(ctx) }
        // A false flag does not promise transparency; one scan buys a 25 % smaller raw stream.
        let opaque = bitmap.isOpaque || bitmap.scanIsOpaque()
        let channels = opaque ? 3 : 4
        var header = spng_ihdr(
            width: UInt32(bitmap.width), height: UInt32(bitmap.height), bit_depth: 8,
            color_type: UInt8(opaque ? SPNG_COLOR_TYPE_TRUECOLOR.rawValue : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue),
            compression_method: 0, filter_method: 0, interlace_method: 0)
        try Self.check(spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1), "configuring")
        try Self.check(spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, Int32(clamping: min(9, max(0, compressionLevel)))), "configuring")
        try Self.check(spng_set_ihdr(ctx, &header), "writing the header")
        let flags = Int32(SPNG_ENCODE_PROGRESSIVE.rawValue | SPNG_ENCODE_FINALIZE.rawValue)
        try Self.check(spng_encode_image(ctx, nil, 0, Int32(SPNG_FMT_PNG.rawValue), flags), "starting")

        let rowLength = bitmap.width * channels
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: rowLength)
        defer { row.deallocate() }
        let rowFailure: CodecError? = bitmap.withUnsafeBytes { pixels in
            guard let base = pixels.baseAddress else { return nil }
            for y in 0..<bitmap.height {
                let source = base + y * bitmap.bytesPerRow
                if opaque {
                    AlphaKernels.dropAlpha(source, to: row, pixelCount: bitmap.width)
                } else {
                    AlphaKernels.unpremultiply(source, to: row, pixelCount: bitmap.width)
                }
                let status = spng_encode_row(ctx, row, rowLength)
                // The last row answers SPNG_EOI: the image is complete and IEND written.
                guard status == 0 || (status == SPNG_EOI.rawValue && y == bitmap.height - 1) else {
                    return Self.failure("libspng refused row \(y): \(String(cString: spng_strerror(status)))")
                }
            }
            return nil
        }
        if let rowFailure { throw rowFailure }

        var length = 0
        var status: Int32 = 0
        guard let buffer = spng_get_png_buffer(ctx, &length, &status), status == 0 else {
            throw Self.failure("libspng produced no output: \(String(cString: spng_strerror(status)))")
        }
        // The buffer was allocated by libspng with malloc and is ours to free.
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static func check(_ status: Int32, _ stage: String) throws(CodecError) {
        guard status == 0 else {
            throw failure("libspng failed while \(stage): \(String(cString: spng_strerror(status)))")
        }
    }

    private static func failure(_ message: String) -> CodecError {
        CodecError(.encodeFailed, source: "output", message)
    }
}
