/// What a processor receives: the source still encoded, or already decoded pixels.
///
/// As in Kingfisher, a chain starts from `.data`; the first processor that needs pixels decodes
/// (and one that makes the image smaller asks the decoder to shrink on load). Every later
/// processor sees `.bitmap`.
public enum ImageProcessItem: Sendable {
    /// Encoded bytes, not decoded yet.
    case data(EncodedImage)
    /// Decoded pixels.
    case bitmap(Bitmap)
}

/// Encoded image bytes and where they came from (for error messages).
public struct EncodedImage: Sendable {
    /// The file's bytes.
    public var bytes: [UInt8]
    /// A name for messages: a path, a URL, or `"<stdin>"`.
    public var sourceName: String

    public init(bytes: [UInt8], sourceName: String) {
        self.bytes = bytes
        self.sourceName = sourceName
    }
}
