import CTurboJPEG
import DarkroomCore

/// Chooses the DCT scale a JPEG is decoded at (libjpeg-turbo's shrink-on-load).
///
/// libjpeg-turbo can produce 1/2, 1/4 or 1/8 of the stored size straight out of the inverse DCT,
/// which is several times cheaper than decoding the full image and reducing it. The smallest of
/// 1/8, 1/4, 1/2 and 1 whose result still covers the hint's target on both axes is chosen, so the
/// processor that gave the hint only ever reduces the rest of the way, never enlarges. Scaled
/// sides round up (`TJSCALED`), exactly as libjpeg-turbo computes them.
enum JPEGShrinkOnLoad {
    /// The candidate denominators, smallest result first.
    static let denominators: [Int32] = [8, 4, 2]

    /// The scale to decode a frame stored at `stored` with `orientation` for `hint`, and the
    /// size (stored axes) it produces. No hint: full size.
    static func choose(stored: PixelSize, orientation: ImageOrientation, hint: DecodeHint?)
        -> (factor: tjscalingfactor, size: PixelSize) {
        let full = (tjscalingfactor(num: 1, denom: 1), stored)
        guard let hint, !hint.box.isEmpty, !stored.isEmpty else { return full }
        // The hint speaks of the upright image; the DCT works on the stored axes.
        let uprightTarget = hint.targetSize(for: orientation.uprightSize(of: stored))
        let target = orientation.uprightSize(of: uprightTarget) // swapping twice is the inverse
        for denominator in denominators {
            let factor = tjscalingfactor(num: 1, denom: denominator)
            let size = scaledSize(stored, by: factor)
            if size.width >= target.width && size.height >= target.height {
                return (factor, size)
            }
        }
        return full
    }

    /// `stored` scaled by `factor`, each side rounded up as libjpeg-turbo does.
    static func scaledSize(_ stored: PixelSize, by factor: tjscalingfactor) -> PixelSize {
        PixelSize(width: Int(darkroom_tj_scaled(Int32(clamping: stored.width), factor)),
                  height: Int(darkroom_tj_scaled(Int32(clamping: stored.height), factor)))
    }
}
