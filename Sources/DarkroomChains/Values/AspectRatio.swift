/// A width-to-height ratio of whole numbers, written `16:9`: the shape of `extend(aspect: 16:9)`'s
/// canvas.
///
/// Each term is 1…1000 (`maximumTerm`), enough for any ratio a site asks for (`1:1`, `4:5`,
/// `16:9`, `1000:419`) while keeping the canvas arithmetic in whole numbers. The chain syntax keeps
/// a ratio in lowest terms (`32:18` prints `16:9`), so two spellings of one shape share a cache
/// identity.
public struct AspectRatio: Hashable, Sendable, CustomStringConvertible {
    /// The largest term the chain syntax accepts.
    public static let maximumTerm = 1000

    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `W:H`.
    public var description: String { "\(width):\(height)" }

    /// The same ratio in lowest terms: `32:18` is `16:9`. Terms must be positive.
    public var reduced: AspectRatio {
        var (a, b) = (width, height)
        while b != 0 { (a, b) = (b, a % b) }
        return AspectRatio(width: width / a, height: height / a)
    }

    /// The smallest canvas of this ratio that contains `image`: the side that is already long
    /// enough stays, the other grows to `image side × ratio`, rounded up so the image always fits.
    /// An image already at the ratio is its own canvas; nothing ever shrinks. Rounding up makes the
    /// canvas's ratio exact only when the product divides; otherwise it is off by less than one
    /// pixel on the grown side (a 100×100 image at `16:9` gives 178×100, 177.8 rounded up).
    public func smallestCanvas(containing image: PixelSize) -> PixelSize {
        // Compare image.width / image.height with width / height without dividing.
        if image.width * height >= image.height * width {
            return PixelSize(width: image.width, height: (image.width * height + width - 1) / width)
        }
        return PixelSize(width: (image.height * width + height - 1) / height, height: image.height)
    }
}
