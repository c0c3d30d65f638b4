import DarkroomChains

/// A step that turns one image into another, with a stable identifier.
///
/// The identifier is the processor's canonical text with its algorithm version, for example
/// `blur.v1(4)`: two processors with equal identifiers produce byte-identical output, so the
/// identifier is part of every cache key. Bump `ProcessorInvocation.version` when an algorithm's
/// output changes; results cached under the old identifier are then simply never looked up again.
///
/// Conform by providing `invocation` and `process(_ bitmap:)`; the rest has defaults.
public protocol ImageProcessing: Sendable {
    /// The processor's name, version and every argument with defaults filled in.
    var invocation: ProcessorInvocation { get }

    /// Cheap identity for in-memory lookups (Nuke's `hashableIdentifier`): equal for processors
    /// that would produce the same output. Defaults to `self` for `Hashable` processors.
    var hashableIdentifier: AnyHashable { get }

    /// What this processor will do to the size, when it makes the image smaller, so the decoder
    /// can shrink on load. `nil` (the default) decodes at full size.
    var decodeHint: DecodeHint? { get }

    /// True when the output may have transparent pixels although the input had none (round
    /// corners, rotation by a non-right angle, a transparent background). The serializer uses it to
    /// store a JPEG source's result as PNG.
    var introducesTransparency: Bool { get }

    /// Processes decoded pixels.
    func process(_ bitmap: Bitmap) throws -> Bitmap

    /// Processes an item; the default decodes `.data` with `decodeHint`, then calls `process(_:)`.
    func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> ImageProcessItem
}

extension ImageProcessing {
    /// `name.vN(arguments)`: the canonical text plus the algorithm version; part of cache keys.
    public var identifier: String { invocation.versionedText }

    /// `name(arguments)`: the canonical text, parseable by `ChainParser`.
    public var canonicalText: String { invocation.canonicalText }

    public var decodeHint: DecodeHint? { nil }
    public var introducesTransparency: Bool { false }

    public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> ImageProcessItem {
        switch item {
        case .bitmap(let bitmap):
            return .bitmap(try process(bitmap))
        case .data(let encoded):
            let bitmap = try context.decoder.decode(encoded, hint: decodeHint)
            return .bitmap(try process(bitmap))
        }
    }
}

extension ImageProcessing where Self: Hashable {
    public var hashableIdentifier: AnyHashable { AnyHashable(self) }
}

/// The namespace for processors, as in Nuke: `ImageProcessors.Blur`, `ImageProcessors.Resize`, …
/// Plugin modules add their processors in extensions, with static factories on `ImageProcessing`
/// (`.blur(radius: 4)`) for the Swift DSL.
public enum ImageProcessors {}
