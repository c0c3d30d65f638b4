import DarkroomChains
import DarkroomSystem

/// A second image a processor draws with (a watermark's source), named by its chain.
///
/// Processors do no I/O: the pipeline fetches every resource a chain declares (through the same
/// providers, source policy, limits and originals cache as a job's source) and decodes it before
/// the chain runs, and hands the pixels in through `ImageProcessingContext.resources`.
public struct ResourceReference: Hashable, Sendable, CustomStringConvertible {
    /// The source as the chain writes it: a path, an `http(s)://` or `s3://` URL, a `data:` URI.
    public var source: String
    /// The operator's version of what lies at `source`; part of its original's cache key, so a
    /// new version is fetched afresh while the old one's cached original is simply not used.
    public var version: Int

    public init(source: String, version: Int) {
        self.source = source
        self.version = version
    }

    public var description: String { "watermark \(source) (version \(version))" }
}

/// A processor that needs resources fetched before it runs.
public protocol ResourceDependent {
    /// The resources `process(_:context:)` will read from its context.
    var resources: [ResourceReference] { get }
}

/// Decoded resources, by reference.
public struct ResolvedResources: Sendable {
    public var bitmaps: [ResourceReference: Bitmap]

    public init(_ bitmaps: [ResourceReference: Bitmap] = [:]) { self.bitmaps = bitmaps }

    public subscript(reference: ResourceReference) -> Bitmap? {
        get { bitmaps[reference] }
        set { bitmaps[reference] = newValue }
    }

    /// Most pixels a resource may decode to (4 MP): a watermark is a logo, and it is drawn into
    /// every output of its chain.
    public static let maxPixels = 4_000_000
}

extension ProcessorChain {
    /// Every resource the chain's processors need, each once, in chain order.
    public var resources: [ResourceReference] {
        var seen = Set<ResourceReference>()
        return processors.flatMap { ($0 as? any ResourceDependent)?.resources ?? [] }.filter { seen.insert($0).inserted }
    }
}

/// Why a processor could not use a resource. Fetch failures keep the source's own errors
/// (`source.*`, `image.*`); these are the failures of the resource as a processor sees it.
public enum ResourceError: CodedDarkroomError, Equatable {
    /// The renderer was given no pixels for it: the caller did not fetch the chain's resources (a
    /// program that renders with `ImageRenderer` alone, or runs the chain on a bitmap).
    case unresolved(ResourceReference)
    /// It decodes to more pixels than `ResolvedResources.maxPixels`.
    case tooLarge(ResourceReference, size: PixelSize, limit: Int)
    /// Tiling it would draw more than `limit` copies.
    case tooManyTiles(ResourceReference, count: Int, limit: Int)

    public enum Code: String, CaseIterable, Sendable {
        case unresolved = "resource.unresolved"
        case tooLarge = "resource.too-large"
        case tooManyTiles = "resource.too-many-tiles"
    }

    public var code: Code {
        switch self {
        case .unresolved: return .unresolved
        case .tooLarge: return .tooLarge
        case .tooManyTiles: return .tooManyTiles
        }
    }

    public var isTransient: Bool { false }

    public var description: String {
        switch self {
        case .unresolved(let reference):
            return "\(reference) was not fetched before the chain ran; render through ImagePipeline, which fetches it"
        case .tooLarge(let reference, let size, let limit):
            return "\(reference) is \(size.width)x\(size.height), over the \(limit / 1_000_000) MP watermark limit (a fixed limit); use a smaller image"
        case .tooManyTiles(let reference, let count, let limit):
            return "\(reference) would be tiled \(count) times, over the \(limit) tile limit; raise scale or margin"
        }
    }
}
