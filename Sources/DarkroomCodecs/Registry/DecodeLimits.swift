import DarkroomChains
import DarkroomCore

/// Limits every decoder checks, from the header, before it allocates pixels (imgproxy's defaults).
public struct DecodeLimits: Sendable, Hashable {
    /// Most pixels an input may declare (width × height of the largest frame or canvas).
    public var maxPixels: Int = 50_000_000
    /// Longest side an input may declare.
    public var maxDimension: Int = 32_768
    /// Most frames an animated input may have (GIF, animated WebP); more is refused, not truncated.
    public var maxFrames: Int = 1_000
    /// Most pixels a whole animation may decode to: frames × canvas width × canvas height. Every
    /// frame of an animation is a full canvas, so this bounds the work (and, for a caller that
    /// keeps frames, the memory) of decoding all of it; a still image counts as one frame.
    public var maxAnimationPixels: Int = 500_000_000
    /// When true (the default), a truncated or corrupt image is an error. When false
    /// (`--lenient`), whatever the decoder could recover is accepted, as libvips does by default.
    public var strict: Bool = true

    public init(
        maxPixels: Int = 50_000_000, maxDimension: Int = 32_768, maxFrames: Int = 1_000, strict: Bool = true,
        maxAnimationPixels: Int = 500_000_000
    ) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxFrames = maxFrames
        self.strict = strict
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// Throws when `size` is empty or over the limits; call it with header dimensions.
    public func check(_ size: PixelSize, source: String) throws(CodecError) {
        guard size.width > 0, size.height > 0 else {
            throw CodecError(.invalidDimensions, source: source, "declares an empty size \(size.width)x\(size.height)")
        }
        guard size.width <= maxDimension, size.height <= maxDimension else {
            throw CodecError(
                .tooLarge, source: source,
                "declares \(size.width)x\(size.height), over the \(maxDimension) px per side input limit (a fixed limit)")
        }
        guard size.width * size.height <= maxPixels else {
            throw CodecError(
                .tooLarge, source: source,
                "declares \(size.width)x\(size.height) = \(Self.megapixels(size.area)) MP, over the \(Self.megapixels(maxPixels)) MP limit (raise it with --max-pixels)"
            )
        }
    }

    /// Throws when an animation of `frameCount` frames on a `canvas`-sized screen is over the
    /// frame limit or, all frames together, over `maxAnimationPixels`. Call it with what the
    /// header (or a pass that skips the compressed data) says, before decoding any frame.
    public func checkAnimation(canvas: PixelSize, frameCount: Int, source: String) throws(CodecError) {
        guard frameCount <= maxFrames else {
            throw CodecError(
                .tooManyFrames, source: source,
                "animation has \(frameCount) frames, over the \(maxFrames) frame limit (a fixed limit)")
        }
        // A caller may pass sizes no other check has bounded yet: an overflow is simply too large.
        let (perFrame, overflow1) = canvas.width.multipliedReportingOverflow(by: canvas.height)
        let (total, overflow2) = perFrame.multipliedReportingOverflow(by: max(1, frameCount))
        guard overflow1 || overflow2 || total > maxAnimationPixels else { return }
        let declared = overflow1 || overflow2 ? "more pixels than can be counted" : Self.pixelCount(total)
        throw CodecError(
            .tooLarge, source: source,
            "animation declares \(frameCount) frames of \(canvas.width)x\(canvas.height) = \(declared) in all, over the \(Self.pixelCount(maxAnimationPixels)) animation limit (raise it with --max-animation-pixels)"
        )
    }

    /// `12 MP` for large counts, `960 px` for small ones (a limit set low in a test or a
    /// deliberately tight configuration would otherwise read as `0.0 MP`).
    static func pixelCount(_ pixels: Int) -> String {
        pixels >= 100_000 ? "\(megapixels(pixels)) MP" : "\(pixels) px"
    }

    static func megapixels(_ pixels: Int) -> String {
        let mp = Double(pixels) / 1_000_000
        return mp >= 10 ? String(Int(mp.rounded())) : String(Double(Int(mp * 10)) / 10)
    }
}
