import CTurboJPEG
import DarkroomChains
import DarkroomCore

/// Chooses the DCT scale a JPEG is decoded at (libjpeg-turbo's shrink-on-load).
///
/// libjpeg-turbo can produce 1/2, 1/4 or 1/8 of the stored size straight out of the inverse DCT,
/// which is several times cheaper than decoding the full image and reducing it. The smallest of
/// 1/8, 1/4, 1/2 and 1 whose result still covers `headroom` times the hint's target on both axes
/// is chosen, so the processor that gave the hint only ever reduces the rest of the way, never
/// enlarges. Scaled sides round up (`TJSCALED`), exactly as libjpeg-turbo computes them.
enum JPEGShrinkOnLoad {
    /// The candidate denominators, smallest result first.
    static let denominators: [Int32] = [8, 4, 2]

    /// How much larger than the target the DCT-scaled image must be. The DCT's own reduction is a
    /// block average, sharper and more aliased than Lanczos; leaving part of the reduction to the
    /// resampler brings the result closer to vips and Pillow, which both keep a factor of 2
    /// ("reducing gap"). Measured with `../shared/bench/thumbs.py` on the 9 corpus JPEGs at a 400 px
    /// box: 1.0 → 40.2 dB mean PSNR against vipsthumbnail (WebP q80: 37.96 dB), 1.5 → 41.0 dB
    /// (38.3 dB) at the same CPU time, 2.0 → 42.4 dB but 9% more CPU. 1.5 is the knee.
    static let headroom = 1.5

    /// The scale to decode a frame stored at `stored` with `orientation` for `hint`, and the
    /// size (stored axes) it produces. No hint: full size.
    static func choose(stored: PixelSize, orientation: ImageOrientation, hint: DecodeHint?)
        -> (factor: tjscalingfactor, size: PixelSize)
    {
        let full = (tjscalingfactor(num: 1, denom: 1), stored)
        guard let hint, !hint.box.isEmpty, !stored.isEmpty else { return full }
        // The hint speaks of the upright image; the DCT works on the stored axes.
        let uprightTarget = hint.targetSize(for: orientation.uprightSize(of: stored))
        let target = orientation.uprightSize(of: uprightTarget)  // swapping twice is the inverse
        for denominator in denominators {
            let factor = tjscalingfactor(num: 1, denom: denominator)
            let size = scaledSize(stored, by: factor)
            if Double(size.width) >= Double(target.width) * headroom,
                Double(size.height) >= Double(target.height) * headroom
            {
                return (factor, size)
            }
        }
        return full
    }

    /// `stored` scaled by `factor`, each side rounded up as libjpeg-turbo does.
    static func scaledSize(_ stored: PixelSize, by factor: tjscalingfactor) -> PixelSize {
        PixelSize(
            width: Int(darkroom_tj_scaled(Int32(clamping: stored.width), factor)),
            height: Int(darkroom_tj_scaled(Int32(clamping: stored.height), factor)))
    }
}
