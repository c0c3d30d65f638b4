import DarkroomChains

/// What the chain will do to the image's size first, so a decoder can shrink on load.
///
/// A JPEG decoder can produce 1/2, 1/4 or 1/8 scale straight out of the DCT and a WebP decoder any
/// size; both are far cheaper than decoding at full size and reducing afterwards. The decoder
/// picks the smallest such scale whose result still covers `targetSize(for:)`, and the processor
/// that gave the hint resamples the rest of the way with a proper filter.
public struct DecodeHint: Hashable, Sendable {
    /// How the box constrains the image.
    public enum Mode: String, Hashable, Sendable {
        /// The image will be scaled to fit inside the box (aspect kept).
        case fit
        /// The image will be scaled to cover the box (aspect kept), then cropped.
        case fill
        /// Each axis will be scaled to the box independently.
        case stretch
    }

    /// The box the first size-changing processor targets.
    public var box: PixelSize
    public var mode: Mode

    public init(box: PixelSize, mode: Mode) {
        self.box = box
        self.mode = mode
    }

    /// The smallest size a decoded image of `source` size must keep so the processor after it
    /// never has to upscale. Never larger than `source` (decoders do not enlarge).
    public func targetSize(for source: PixelSize) -> PixelSize {
        let sx = Double(box.width) / Double(source.width)
        let sy = Double(box.height) / Double(source.height)
        let scaleX: Double
        let scaleY: Double
        switch mode {
        case .fit:
            scaleX = min(sx, sy)
            scaleY = scaleX
        case .fill:
            scaleX = max(sx, sy)
            scaleY = scaleX
        case .stretch:
            scaleX = sx
            scaleY = sy
        }
        return PixelSize(
            width: min(source.width, max(1, Int((Double(source.width) * min(1, scaleX)).rounded(.up)))),
            height: min(source.height, max(1, Int((Double(source.height) * min(1, scaleY)).rounded(.up)))))
    }
}
