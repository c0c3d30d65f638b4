/// The most pixels one bitmap may hold, checked before its memory is requested.
///
/// A ceiling on every allocation lets a processor asked for `resize(60000x60000)` fail with a
/// clear error instead of asking the allocator for 14 GB. It is a value, not a process-wide
/// setting, so two pipelines in one process (or two tests running at once) can allocate under
/// different ceilings: whoever allocates a bitmap from nothing (a decoder) is given one by its
/// configuration, and every bitmap a kernel derives from another inherits its source's
/// (`Bitmap.limits`), so a chain's intermediate images obey the configuration that admitted the
/// decoded image without each processor having to be told.
///
/// Input limits (50 MP by default, `DecodeLimits`) are separate and checked by decoders from the
/// header; a configuration's ceiling should admit every input its decode limits admit.
public struct BitmapLimits: Sendable, Hashable {
    /// The ceiling when nobody configured one: 100 MP (400 MB of RGBA).
    public static let standardMaxPixelCount = 100_000_000

    /// Most pixels (width × height) in one bitmap; at least 1.
    public var maxPixelCount: Int {
        didSet { maxPixelCount = max(1, maxPixelCount) }
    }

    /// A ceiling of `maxPixelCount` pixels (raised to 1 if lower).
    public init(maxPixelCount: Int = BitmapLimits.standardMaxPixelCount) {
        self.maxPixelCount = max(1, maxPixelCount)
    }

    /// Throws unless a `width × height` bitmap is non-empty, within `Bitmap.maximumDimension`
    /// per side and within `maxPixelCount`.
    public func check(width: Int, height: Int) throws(BitmapError) {
        guard width > 0, height > 0 else { throw .emptySize(width: width, height: height) }
        // The product is computed only once both sides are known to be at most 65535: no overflow.
        guard width <= Bitmap.maximumDimension, height <= Bitmap.maximumDimension,
            width * height <= maxPixelCount
        else {
            throw .tooLarge(width: width, height: height, maxPixelCount: maxPixelCount)
        }
    }
}
