import CSpng
import DarkroomCore

/// One libspng decoding context over bytes the caller keeps pinned.
///
/// `spng_set_png_buffer` stores the pointer it is given and reads through it on every later
/// call, so a reader must never outlive the `withUnsafeBytes` scope that produced `buffer`:
/// `PNGDecoder` creates it inside that closure and lets it go before the closure returns.
/// Non-copyable, so the context is freed exactly once.
struct SpngReader: ~Copyable {
    private let ctx: OpaquePointer
    let source: String

    /// A decoder over `buffer` with Darkroom's limits applied: image size (defence in depth: the
    /// caller also checks the header against `DecodeLimits`), chunk sizes, and the CRC policy.
    init(buffer: UnsafeRawBufferPointer, limits: DecodeLimits, source: String) throws(CodecError) {
        guard let ctx = spng_ctx_new(0) else {
            throw CodecError(.corrupt, source: source, "could not create a PNG decoder (out of memory)")
        }
        // Both sides are capped by the hard bitmap ceiling and libspng's own maximum (2^31 - 1).
        let side = UInt32(clamping: min(limits.maxDimension, Bitmap.maximumDimension))
        spng_set_image_limits(ctx, side, side)
        spng_set_chunk_limits(ctx, PNGLimits.chunkSizeLimit, PNGLimits.chunkCacheLimit)
        if limits.strict {
            // Critical chunks with a bad CRC are errors; ancillary ones are dropped (libspng's
            // default): a damaged text chunk is no reason to refuse the pixels.
            spng_set_crc_action(ctx, Int32(SPNG_CRC_ERROR.rawValue), Int32(SPNG_CRC_DISCARD.rawValue))
        } else {
            // Lenient: use the data whatever the CRC (and the zlib Adler-32) says.
            spng_set_crc_action(ctx, Int32(SPNG_CRC_USE.rawValue), Int32(SPNG_CRC_USE.rawValue))
        }
        let status = spng_set_png_buffer(ctx, buffer.baseAddress, buffer.count)
        guard status == 0 else {
            spng_ctx_free(ctx)
            throw SpngError.codecError(status, source: source, while: "opening")
        }
        self.ctx = ctx
        self.source = source
    }

    deinit { spng_ctx_free(ctx) }

    /// The IHDR chunk. libspng has already refused zero sizes and sizes over the image limits;
    /// the caller maps those errors through `DecodeLimits` for a precise message.
    func header() throws(CodecError) -> spng_ihdr {
        var ihdr = spng_ihdr()
        let status = spng_get_ihdr(ctx, &ihdr)
        guard status == 0 else { throw SpngError.codecError(status, source: source, while: "reading the header") }
        return ihdr
    }

    /// True when a tRNS chunk gives the image transparency. Reads the chunks before IDAT.
    func hasTransparencyChunk() throws(CodecError) -> Bool {
        var trns = spng_trns()
        let status = spng_get_trns(ctx, &trns)
        if status == SPNG_ECHUNKAVAIL.rawValue { return false }
        guard status == 0 else { throw SpngError.codecError(status, source: source, while: "reading chunks") }
        return true
    }

    /// The inflated iCCP profile, if any (bounded by `PNGLimits`).
    func iccProfile() throws(CodecError) -> [UInt8]? {
        var iccp = spng_iccp()
        let status = spng_get_iccp(ctx, &iccp)
        if status == SPNG_ECHUNKAVAIL.rawValue { return nil }
        guard status == 0 else { throw SpngError.codecError(status, source: source, while: "reading the ICC profile") }
        guard let profile = iccp.profile, iccp.profile_len > 0 else { return nil }
        return profile.withMemoryRebound(to: UInt8.self, capacity: iccp.profile_len) {
            Array(UnsafeBufferPointer(start: $0, count: iccp.profile_len))
        }
    }

    /// The eXIf chunk's TIFF block, if any; nil when absent or unreadable (metadata never fails a
    /// decode).
    func exif() -> [UInt8]? {
        var exif = spng_exif()
        guard spng_get_exif(ctx, &exif) == 0, let data = exif.data, exif.length > 0 else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: exif.length) { Array(UnsafeBufferPointer(start: $0, count: exif.length)) }
    }

    /// The text of the first `XML:com.adobe.xmp` iTXt chunk, if any (libspng inflates a
    /// compressed one within `PNGLimits`); nil when absent or unreadable.
    func xmp() -> [UInt8]? {
        var count: UInt32 = 0
        guard spng_get_text(ctx, nil, &count) == 0, count > 0, count <= 1_024 else { return nil }
        var texts = [spng_text](repeating: spng_text(), count: Int(count))
        guard spng_get_text(ctx, &texts, &count) == 0 else { return nil }
        for text in texts.prefix(Int(count)) where text.type == Int32(SPNG_ITXT.rawValue) {
            let keyword = withUnsafeBytes(of: text.keyword) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard keyword == "XML:com.adobe.xmp", let body = text.text, text.length > 0 else { continue }
            return body.withMemoryRebound(to: UInt8.self, capacity: text.length) { Array(UnsafeBufferPointer(start: $0, count: text.length)) }
        }
        return nil
    }

    /// Starts a progressive decode to `format` with tRNS applied.
    func startDecoding(format: spng_format) throws(CodecError) {
        let flags = Int32(SPNG_DECODE_TRNS.rawValue | SPNG_DECODE_PROGRESSIVE.rawValue)
        let status = spng_decode_image(ctx, nil, 0, Int32(format.rawValue), flags)
        guard status == 0 else { throw SpngError.codecError(status, source: source, while: "starting to decode") }
    }

    /// The row the next `decodeRow`/`decodeScanline` call will produce.
    func nextRow() -> spng_row_info? {
        var info = spng_row_info()
        return spng_get_row_info(ctx, &info) == 0 ? info : nil
    }

    /// Decodes the next row, deinterlaced into its final pixel positions, into `row`. Returns
    /// false when that was the last row (it has been written).
    func decodeRow(into row: UnsafeMutableRawPointer, length: Int) throws(CodecError) -> Bool {
        try check(spng_decode_row(ctx, row, length))
    }

    /// Decodes the next scanline as stored (one Adam7 pass's pixels only), into `row`. Returns
    /// false when that was the last scanline (it has been written).
    func decodeScanline(into row: UnsafeMutableRawPointer, length: Int) throws(CodecError) -> Bool {
        try check(spng_decode_scanline(ctx, row, length))
    }

    /// Reads the chunks after the image data up to IEND, so strict mode notices a file cut
    /// short after its last IDAT or a bad CRC there.
    func finish() throws(CodecError) {
        let status = spng_decode_chunks(ctx)
        guard status == 0 else { throw SpngError.codecError(status, source: source, while: "reading the chunks after the image") }
    }

    /// `SPNG_EOI` follows the last row, which has been written; anything else non-zero is an error.
    private func check(_ status: Int32) throws(CodecError) -> Bool {
        if status == 0 { return true }
        if status == SPNG_EOI.rawValue { return false }
        throw SpngError.codecError(status, source: source, while: "decoding pixels")
    }
}
