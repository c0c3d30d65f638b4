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
    /// The decoded resources the chain declared (`ProcessorChain.resources`), fetched by the
    /// pipeline before the chain runs; empty when the chain needs none.
    public var resources: ResolvedResources

    public init(decoder: any ImageDecodingService, resources: ResolvedResources = ResolvedResources()) {
        self.decoder = decoder
        self.resources = resources
    }
}
