import DarkroomSystem

/// Why an image could not be read or written. `description` names the source and the reason:
/// `photos/cat.jpg: truncated JPEG data (premature end of data segment)`.
public struct CodecError: CodedDarkroomError, SourceNamingError, Equatable {
    /// Stable codes for scripts, job records and tests.
    public enum Code: String, CaseIterable, Sendable {
        /// Zero bytes.
        case empty = "image.empty"
        /// No decoder recognises the bytes (random data, HTML saved as .jpg).
        case unknownFormat = "image.unknown-format"
        /// The data ends before the image does.
        case truncated = "image.truncated"
        /// The data is damaged (bad marker, bad CRC, bad Huffman code).
        case corrupt = "image.corrupt"
        /// The header declares a zero or impossible size.
        case invalidDimensions = "image.invalid-dimensions"
        /// The header declares more pixels or a longer side than the limits allow.
        case tooLarge = "image.too-large"
        /// More frames than the limit allows.
        case tooManyFrames = "image.too-many-frames"
        /// A valid image using a feature Darkroom does not support.
        case unsupported = "image.unsupported"
        /// A colour profile could not be applied.
        case colorProfile = "image.color-profile"
        /// The encoder failed.
        case encodeFailed = "image.encode-failed"
        /// A format Darkroom recognises but decodes only with a coder module that is not loaded
        /// (HEIC: the `heic` module, `darkroom-heic.so`). A worker hands such a job back for one
        /// that has the module.
        case needsModule = "image.needs-module"
    }

    public var code: Code
    /// The source's name (path, URL).
    public var source: String
    /// What is wrong, for a person.
    public var message: String

    public init(_ code: Code, source: String, _ message: String) {
        self.code = code
        self.source = source
        self.message = message
    }
}

extension CodecError {
    /// A damaged or unsupported image stays so: never worth a retry.
    public var isTransient: Bool { false }
}
