import CSpng

/// Turns libspng's error numbers into Darkroom's stable codes.
///
/// libspng reports about eighty distinct errors; a caller only needs to know whether the file
/// ended early (`.truncated`), is damaged (`.corrupt`), or asks for more than the limits allow
/// (`.tooLarge`). The message keeps libspng's own wording so a person can tell which check failed.
enum SpngError {
    /// The `CodecError` for a non-zero libspng return value `status`.
    static func codecError(_ status: Int32, source: String, while stage: String) -> CodecError {
        let reason = String(cString: spng_strerror(status))
        switch status {
        case SPNG_IO_EOF.rawValue, SPNG_EOF.rawValue, SPNG_EIDAT_TOO_SHORT.rawValue:
            return CodecError(.truncated, source: source, "truncated PNG data while \(stage) (\(reason))")
        case SPNG_ECHUNK_CRC.rawValue:
            return CodecError(
                .corrupt, source: source,
                "corrupt PNG while \(stage): a chunk's CRC does not match its data (use --lenient to ignore CRCs)")
        case SPNG_EMEM.rawValue, SPNG_ECHUNK_LIMITS.rawValue:
            // Reaching the chunk size or chunk cache limit is reported as out-of-memory by libspng.
            return CodecError(
                .tooLarge, source: source,
                "PNG metadata while \(stage) exceeds the \(PNGLimits.chunkSizeLimit / 1_048_576) MB chunk limit or the \(PNGLimits.chunkCacheLimit / 1_048_576) MB metadata limit, fixed limits (\(reason))"
            )
        case SPNG_EWIDTH.rawValue, SPNG_EHEIGHT.rawValue:
            return CodecError(.invalidDimensions, source: source, "PNG header declares an invalid size (\(reason))")
        case SPNG_EUSER_WIDTH.rawValue, SPNG_EUSER_HEIGHT.rawValue:
            return CodecError(.tooLarge, source: source, "PNG header declares a size over the limits (\(reason))")
        case SPNG_EBIT_DEPTH.rawValue, SPNG_ECOLOR_TYPE.rawValue, SPNG_ECOMPRESSION_METHOD.rawValue,
            SPNG_EFILTER_METHOD.rawValue, SPNG_EINTERLACE_METHOD.rawValue:
            return CodecError(.corrupt, source: source, "PNG header is invalid (\(reason))")
        default:
            return CodecError(.corrupt, source: source, "corrupt PNG while \(stage) (\(reason))")
        }
    }
}

/// The memory libspng may spend on chunks besides the image data, so a small file cannot make
/// it inflate a huge iCCP, zTXt or iTXt chunk (a zlib bomb hidden in metadata).
enum PNGLimits {
    /// Largest single chunk libspng will store or inflate. Real ICC profiles are under 1 MB;
    /// IDAT is streamed and not subject to it.
    static let chunkSizeLimit = 8 * 1_048_576
    /// Total memory for all stored ancillary chunks of one image.
    static let chunkCacheLimit = 16 * 1_048_576
}
