import CTurboJPEG

/// Owns one TurboJPEG instance (`tjhandle`) and destroys it when it goes out of scope.
///
/// Non-copyable, so the handle has exactly one owner and `tjDestroy` runs exactly once, on every
/// path out of a decode or encode (errors included). A handle is not thread-safe, so each decode
/// or encode makes its own; `tjInitDecompress` costs microseconds (it allocates libjpeg's
/// small decompressor struct), nothing next to the decode itself.
struct TurboJPEGHandle: ~Copyable {
    /// The underlying instance; valid until `deinit`.
    let raw: tjhandle

    /// A decompressor, or nil when TurboJPEG could not allocate one.
    static func decompressor() -> TurboJPEGHandle? {
        guard let raw = tjInitDecompress() else { return nil }
        return TurboJPEGHandle(raw: raw)
    }

    /// A compressor, or nil when TurboJPEG could not allocate one.
    static func compressor() -> TurboJPEGHandle? {
        guard let raw = tjInitCompress() else { return nil }
        return TurboJPEGHandle(raw: raw)
    }

    private init(raw: tjhandle) {
        self.raw = raw
    }

    deinit {
        tjDestroy(raw)
    }

    /// TurboJPEG's (or libjpeg's) description of the last error or warning on this handle, without
    /// TurboJPEG's `tjDecompress2(): ` style prefix.
    var errorMessage: String {
        guard let text = tjGetErrorStr2(raw) else { return "unknown TurboJPEG error" }
        var message = String(cString: text)
        if message.hasPrefix("tj"), let range = message.firstRange(of: "(): ") {
            message = String(message[range.upperBound...])
        }
        return message
    }

    /// True when the last problem was only a warning (libjpeg recovered; the pixels may be damaged).
    var lastErrorWasWarning: Bool {
        tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue)
    }
}
