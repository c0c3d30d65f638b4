import DarkroomCore

/// Limits every decoder checks, from the header, before it allocates pixels (imgproxy's defaults).
public struct DecodeLimits: Sendable, Hashable {
    /// Most pixels an input may declare (width × height of the largest frame or canvas).
    public var maxPixels: Int = 50_000_000
    /// Longest side an input may declare.
    public var maxDimension: Int = 32_768
    /// Most frames an animated input may have (GIF, animated WebP); more is refused, not truncated.
    public var maxFrames: Int = 1_000
    /// When true (the default), a truncated or corrupt image is an error. When false
    /// (`--lenient`), whatever the decoder could recover is accepted, as libvips does by default.
    public var strict: Bool = true

    public init(maxPixels: Int = 50_000_000, maxDimension: Int = 32_768, maxFrames: Int = 1_000, strict: Bool = true) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxFrames = maxFrames
        self.strict = strict
    }

    /// Throws when `size` is empty or over the limits; call it with header dimensions.
    public func check(_ size: PixelSize, source: String) throws(CodecError) {
        guard size.width > 0, size.height > 0 else {
            throw CodecError(.invalidDimensions, source: source, "declares an empty size \(size.width)x\(size.height)")
        }
        guard size.width <= maxDimension, size.height <= maxDimension else {
            throw CodecError(
                .tooLarge, source: source,
                "declares \(size.width)x\(size.height), over the \(maxDimension) px per side limit")
        }
        guard size.width * size.height <= maxPixels else {
            throw CodecError(
                .tooLarge, source: source,
                "declares \(size.width)x\(size.height) = \(Self.megapixels(size.area)) MP, over the \(Self.megapixels(maxPixels)) MP limit (raise it with --max-pixels)"
            )
        }
    }

    static func megapixels(_ pixels: Int) -> String {
        let mp = Double(pixels) / 1_000_000
        return mp >= 10 ? String(Int(mp.rounded())) : String(Double(Int(mp * 10)) / 10)
    }
}
