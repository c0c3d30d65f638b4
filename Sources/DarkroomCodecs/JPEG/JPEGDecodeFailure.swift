/// Turns a TurboJPEG/libjpeg failure into a `CodecError` whose code scripts can rely on and whose
/// message keeps libjpeg's own words (`Corrupt JPEG data: bad Huffman code`).
enum JPEGDecodeFailure {
    /// - Parameters:
    ///   - message: TurboJPEG's error text.
    ///   - endOfImageWasMissing: the data did not end with EOI; an error about data ending or a
    ///     scan breaking off early then means the file was cut short, not damaged.
    static func codecError(message: String, endOfImageWasMissing: Bool, source: String) -> CodecError {
        let lowered = message.lowercased()
        let code: CodecError.Code
        if lowered.contains("premature end of jpeg file") {
            code = .truncated
        } else if endOfImageWasMissing
            && (lowered.contains("premature end of data segment")
                || lowered.contains("unexpected marker") || lowered.contains("found marker 0xd9"))
        {
            code = .truncated
        } else if lowered.contains("unsupported") || lowered.contains("not supported") || lowered.contains("requested features are incompatible") {
            code = .unsupported
        } else if lowered.contains("maximum supported image dimension") {
            code = .tooLarge
        } else if lowered.contains("empty jpeg image") {
            code = .invalidDimensions
        } else {
            code = .corrupt
        }
        let what: String
        switch code {
        case .truncated: what = "truncated JPEG data"
        case .unsupported: what = "unsupported JPEG"
        default: what = "corrupt JPEG data"
        }
        return CodecError(code, source: source, "\(what) (libjpeg: \(message))")
    }
}
