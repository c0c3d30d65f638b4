import DarkroomChains
import DarkroomSystem

/// Placeholders of an output image (docs/placeholders.md): all three come from one thumbnail,
/// the image scaled to fit in 100×100 (ThumbHash's own limit; never enlarged) with the same
/// Lanczos-3 as `downsample`, its colours unpremultiplied.
extension Bitmap {
    /// The side of the square the placeholders' thumbnail fits in.
    public static let placeholderThumbnailSide = ThumbHash.maximumSide

    /// The placeholders of `kinds` for this image; empty when `kinds` is.
    public func placeholders(_ kinds: Set<PlaceholderKind>) throws -> Placeholders {
        guard !kinds.isEmpty else { return Placeholders() }
        let (rgba, size) = try placeholderThumbnail()
        var found = Placeholders()
        if kinds.contains(.blurhash) {
            found.blurhash = BlurHash.encode(
                rgba: rgba, width: size.width, height: size.height, componentsX: BlurHash.defaultComponents.x,
                componentsY: BlurHash.defaultComponents.y)
        }
        if kinds.contains(.thumbhash) {
            found.thumbhash = ThumbHash.base64(ThumbHash.encode(rgba: rgba, width: size.width, height: size.height))
        }
        if kinds.contains(.color) { found.color = DominantColor.hex(rgba: rgba, width: size.width, height: size.height) }
        return found
    }

    /// The size this image is scaled to for its placeholders: fit in 100×100, each side at least 1.
    public var placeholderThumbnailSize: PixelSize {
        let side = Self.placeholderThumbnailSide
        let longest = max(width, height)
        guard longest > side else { return size }
        func scaled(_ length: Int) -> Int { max(1, Int((Double(length) * Double(side) / Double(longest)).rounded())) }
        return PixelSize(width: scaled(width), height: scaled(height))
    }

    /// The thumbnail's straight RGBA, rows tightly packed, and its size.
    func placeholderThumbnail() throws -> (rgba: [UInt8], size: PixelSize) {
        let target = placeholderThumbnailSize
        let small = try target == size ? self : resampled(to: target)
        var rgba = [UInt8](repeating: 0, count: target.width * target.height * 4)
        for y in 0..<target.height {
            for x in 0..<target.width {
                let color = small.pixel(x: x, y: y)
                let i = (y * target.width + x) * 4
                rgba[i] = color.red
                rgba[i + 1] = color.green
                rgba[i + 2] = color.blue
                rgba[i + 3] = color.alpha
            }
        }
        return (rgba, target)
    }
}
