import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSystem

/// Limits on one render, on by default as imgproxy's are.
public struct RenderLimits: Sendable, Hashable {
    /// What decoders accept (50 MP, 32768 px per side, 1000 frames, strict).
    public var decode: DecodeLimits
    /// Most pixels any one bitmap may hold while decoding and processing (100 MP). The decoded
    /// image is allocated under it and every bitmap the chain derives inherits it, so a
    /// `resize(60000x60000)` fails before asking for memory. Keep it at least `decode.maxPixels`,
    /// or inputs the decode limits admit are refused at allocation.
    public var bitmap: BitmapLimits
    /// Longest side of a result. 16383 is the largest WebP can hold, so any result fits any format.
    public var maxOutputDimension: Int
    /// Most renditions one job may ask for (16).
    public var maxRenditions: Int = 16
    /// Most pixels the renditions made from one decode may hold together, before encoding (100 MP):
    /// they are all in memory at once.
    public var maxRenditionPixels: Int = 100_000_000

    public init(decode: DecodeLimits = DecodeLimits(), bitmap: BitmapLimits = BitmapLimits(), maxOutputDimension: Int = 16_383) {
        self.decode = decode
        self.bitmap = bitmap
        self.maxOutputDimension = maxOutputDimension
    }

    /// Throws when a job asks for more renditions than allowed.
    public func checkRenditionCount(_ count: Int, source: String) throws(RenderError) {
        guard count <= maxRenditions else { throw RenderError.tooManyRenditions(source: source, count: count, limit: maxRenditions) }
    }

    /// The options a decode under these limits runs with.
    func decodeOptions(hint: DecodeHint? = nil, keep: MetadataKeep = []) -> DecodeOptions {
        DecodeOptions(hint: hint, limits: decode, bitmapLimits: bitmap, keep: keep)
    }

    /// Throws when a result is larger than allowed.
    public func checkOutput(_ size: PixelSize, source: String) throws(RenderError) {
        guard size.width <= maxOutputDimension, size.height <= maxOutputDimension else {
            throw RenderError.outputTooLarge(source: source, size: size, limit: maxOutputDimension)
        }
    }
}

/// Errors of the render step itself (codec and chain errors pass through unchanged).
public enum RenderError: CodedDarkroomError, Equatable {
    case outputTooLarge(source: String, size: PixelSize, limit: Int)
    case tooManyRenditions(source: String, count: Int, limit: Int)
    case renditionPixels(source: String, pixels: Int, limit: Int)

    /// Stable codes for scripts and job records.
    public enum Code: String, CaseIterable, Sendable {
        case outputTooLarge = "output.too-large"
        case tooManyRenditions = "renditions.too-many"
        case renditionPixels = "renditions.too-many-pixels"
    }

    public var code: Code {
        switch self {
        case .outputTooLarge: return .outputTooLarge
        case .tooManyRenditions: return .tooManyRenditions
        case .renditionPixels: return .renditionPixels
        }
    }

    public var description: String {
        switch self {
        case .outputTooLarge(let source, let size, let limit):
            return "\(source): the result would be \(size), over the \(limit) px per side output limit (raise it with --max-output-dimension)"
        case .tooManyRenditions(let source, let count, let limit):
            return "\(source): the job asks for \(count) renditions, over the limit of \(limit) (raise it with --max-renditions)"
        case .renditionPixels(let source, let pixels, let limit):
            return
                "\(source): the renditions would hold \(pixels) pixels together, over the \(limit) pixel limit (raise it with --max-rendition-pixels, or split the job)"
        }
    }
}

extension RenderError {
    /// A limit, not a hiccup: the same job gives the same result.
    public var isTransient: Bool { false }
    public var messageNamesSource: Bool { true }
}
