import CWebP
import DarkroomChains
import DarkroomCore

/// Runs libwebp's decoder over one frame's bitstream, writing premultiplied RGBA (`MODE_rgbA`)
/// straight into memory the caller owns (`is_external_memory`): the bitmap's storage, or the
/// frame's rectangle inside a canvas. libwebp's own scaler shrinks on load when asked.
///
/// The incremental decoder is used even though the whole file is in memory: with complete data
/// it costs the same as `WebPDecode`, and when the data ends early it reports how many rows it
/// produced, which lenient mode keeps.
enum WebPPixelDecoding {
    /// How far a decode got.
    enum Outcome {
        case complete
        /// The data ended (or broke) after this many rows; later rows were cleared.
        case partial(rows: Int)
    }

    /// Decodes `bitstream` into `destination`: `output.height` rows `stride` bytes apart, each
    /// `output.width` pixels. When `output` differs from the bitstream's own size, libwebp scales
    /// to it.
    static func decode(
        _ bitstream: UnsafeRawBufferPointer, scaledTo output: PixelSize?, frameSize: PixelSize,
        into destination: UnsafeMutablePointer<UInt8>, stride: Int,
        strict: Bool, source: String
    ) throws(CodecError) -> Outcome {
        guard let data = bitstream.baseAddress?.assumingMemoryBound(to: UInt8.self), bitstream.count > 0 else {
            throw CodecError(.truncated, source: source, "WebP frame has no data")
        }
        let size = output ?? frameSize
        // The incremental decoder keeps a pointer to the configuration until it is deleted, so
        // the configuration lives on the heap rather than in a Swift local.
        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        defer { config.deallocate() }
        config.initialize(to: WebPDecoderConfig())
        guard darkroom_webp_init_decoder_config(config) != 0 else {
            throw CodecError(.unsupported, source: source, "the installed libwebp does not match the headers Darkroom was built with")
        }
        config.pointee.output.colorspace = MODE_rgbA
        config.pointee.output.is_external_memory = 1
        config.pointee.output.u.RGBA.rgba = destination
        config.pointee.output.u.RGBA.stride = Int32(stride)
        config.pointee.output.u.RGBA.size = stride * (size.height - 1) + size.width * 4
        if let output, output != frameSize {
            config.pointee.options.use_scaling = 1
            config.pointee.options.scaled_width = Int32(output.width)
            config.pointee.options.scaled_height = Int32(output.height)
        }
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw CodecError(.corrupt, source: source, "could not start the WebP decoder")
        }
        defer { WebPIDelete(decoder) }

        let status = WebPIUpdate(decoder, data, bitstream.count)
        if status == VP8_STATUS_OK { return .complete }
        let error = codecError(status, source: source)
        guard !strict else { throw error }
        // Lenient: keep the rows that were written, if any, and clear the rest.
        var lastRow: Int32 = 0
        let rows = WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil) == nil ? 0 : Int(max(0, min(lastRow, Int32(size.height))))
        guard rows > 0 else { throw error }
        for y in rows..<size.height {
            (destination + y * stride).update(repeating: 0, count: size.width * 4)
        }
        return .partial(rows: rows)
    }

    /// Darkroom's code for a libwebp status.
    static func codecError(_ status: VP8StatusCode, source: String) -> CodecError {
        switch status {
        case VP8_STATUS_SUSPENDED, VP8_STATUS_NOT_ENOUGH_DATA:
            return CodecError(.truncated, source: source, "truncated WebP data (the bitstream ends before the image does)")
        case VP8_STATUS_BITSTREAM_ERROR:
            return CodecError(.corrupt, source: source, "corrupt WebP bitstream")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return CodecError(.unsupported, source: source, "WebP uses a feature libwebp does not support")
        case VP8_STATUS_OUT_OF_MEMORY:
            return CodecError(.tooLarge, source: source, "libwebp ran out of memory decoding this image")
        default:
            return CodecError(.corrupt, source: source, "WebP decoding failed (libwebp status \(status.rawValue))")
        }
    }
}
