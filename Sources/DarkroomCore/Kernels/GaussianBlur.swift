import DarkroomChains
import Foundation

/// Gaussian blur of premultiplied RGBA, made to agree with `vips gaussblur`.
///
/// The standard deviation is `sigma` pixels, as CSS `blur()` and libvips' `sigma`. The kernel is
/// libvips' `gaussmat` with its `gaussblur` default `min_ampl` of 0.2: the Gaussian is cut where it
/// drops below a fifth of its peak, a half-width of about 1.8σ (so a sigma below about 0.56
/// leaves the image unchanged, as in libvips). Unlike libvips, the weights are not rounded to
/// twentieths first but kept at 14-bit precision. Edges extend with a copy of the edge pixels,
/// as libvips does. Blurring premultiplied values gives no dark fringes at transparent edges.
extension Bitmap {
    /// This image blurred with a Gaussian of standard deviation `sigma` pixels.
    ///
    /// From sigma 16 on, the blur runs on a copy reduced by `f = ⌊sigma / 8⌋` (Lanczos), with
    /// sigma / f, and the result is enlarged back: a direct kernel would have 3.6 taps per unit of
    /// sigma per pixel (a minute for `blur(1000)` on a 24 MP photo), while the reduced route costs
    /// about the same whatever the sigma. At those sigmas the image holds no detail finer than f
    /// pixels, so nothing visible is lost: measured against the direct kernel on a photo,
    /// 54 dB PSNR for sigma 16–40 and 48 dB for sigma 100 (49 dB against vips at sigma 24). One
    /// difference remains where the kernel is wider than the picture: the edge pixels that the
    /// direct kernel repeats are, on the reduced copy, averages of f edge pixels.
    public func gaussianBlurred(sigma: Double) throws -> Bitmap {
        if sigma.isFinite, sigma >= 16 {
            let factor = Int(min(sigma / 8, 4096))
            if width > factor || height > factor {
                let reduced = try resampled(
                    to: PixelSize(
                        width: (width + factor - 1) / factor,
                        height: (height + factor - 1) / factor))
                let blurred = try reduced.gaussianBlurred(sigma: sigma / Double(factor))
                return try blurred.resampled(to: size)
            }
        }
        let kernel = Self.gaussianKernel(sigma: sigma)
        guard kernel.count > 1 else {
            var copy = self
            copy.sizeBeforeShrinkOnLoad = nil
            return copy
        }
        let h = ConvolutionWeights(count: width, kernel: kernel)
        let v = ConvolutionWeights(count: height, kernel: kernel)
        return try SeparableConvolution.apply(self, horizontal: h, vertical: v)
    }

    /// The unnormalised 1-D kernel, `exp(-x² / 2σ²)` for x in -r...r, with r chosen as libvips
    /// does: the last x whose value is still ≥ 0.2. A single 1 for tiny or invalid sigmas.
    static func gaussianKernel(sigma: Double, minimumAmplitude: Double = 0.2) -> [Double] {
        guard sigma.isFinite, sigma > 0 else { return [1] }
        let twoSigmaSquared = 2 * sigma * sigma
        let limit = min(Int((8 * sigma).rounded(.up)) + 1, 65_536)
        var x = 0
        while x < limit && exp(-Double(x * x) / twoSigmaSquared) >= minimumAmplitude { x += 1 }
        let radius = max(x - 1, 0)
        return (-radius...radius).map { exp(-Double($0 * $0) / twoSigmaSquared) }
    }
}
