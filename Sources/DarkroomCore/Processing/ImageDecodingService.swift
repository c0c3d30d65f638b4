/// Decodes encoded bytes into a `Bitmap` for processors that receive `.data`.
///
/// `DarkroomCore` does no I/O and links no codec; `DarkroomCodecs` provides the implementation
/// (`CoderRegistry`) and the pipeline passes it in through `ImageProcessingContext`.
public protocol ImageDecodingService: Sendable {
    /// Decodes `image`, shrinking on load towards `hint` when given. Throws a codec error that
    /// names the source and the reason.
    func decode(_ image: EncodedImage, hint: DecodeHint?) throws -> Bitmap
}

/// What processors may use besides their input.
public struct ImageProcessingContext: Sendable {
    /// Decodes `.data` items.
    public var decoder: any ImageDecodingService

    public init(decoder: any ImageDecodingService) {
        self.decoder = decoder
    }
}
