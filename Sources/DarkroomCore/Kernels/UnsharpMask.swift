import DarkroomChains

/// Unsharp mask on luminance: each pixel's Rec. 709 luma Y is compared with the luma of a
/// Gaussian-blurred copy, and `amount × (Y − Yblurred)` is added to R, G and B alike.
///
/// Luminance rather than per channel (what Pillow's `UnsharpMask` does) because sharpening each
/// channel on its own exaggerates colour differences at edges into coloured fringes; adding one
/// offset to the three channels moves luma by exactly that offset and leaves hue alone, which is
/// what `vips sharpen` (on LAB L*) and the image servers built on it do.
///
/// Alpha is never sharpened: it is copied. Colour is handled in straight (un-premultiplied)
/// terms: the difference is taken between the pixel's straight luma and the blurred copy's
/// (blurring premultiplied values and dividing by the blurred alpha is an alpha-weighted blur, so
/// transparent neighbours neither darken nor brighten an edge), and the offset is scaled by the
/// pixel's alpha before it is added to the premultiplied bytes, each channel clamped to its alpha.
///
/// The blur is `SeparableConvolution`'s (in bands on idle cores, like `blur`) with the Gaussian
/// cut where it falls below a tenth of its peak, as `vips sharpen`'s mask is, so sigma 0.5 is
/// still a 3-tap mask (blur's fifth would make it the identity).
extension Bitmap {
    /// This image sharpened with an unsharp mask of standard deviation `sigma` pixels.
    /// Luma differences smaller than `threshold` levels (of 255) are left unchanged.
    public func unsharpMasked(sigma: Double, amount: Double, threshold: Double) throws -> Bitmap {
        let kernel = Self.gaussianKernel(sigma: sigma, minimumAmplitude: UnsharpMask.minimumAmplitude)
        let gain = amount.isFinite ? Int((min(amount, 1000) * 4096).rounded()) : 0
        guard kernel.count > 1, gain > 0 else {
            var copy = self
            copy.sizeBeforeShrinkOnLoad = nil
            return copy
        }
        let blurred = try SeparableConvolution.apply(
            self, horizontal: ConvolutionWeights(count: width, kernel: kernel),
            vertical: ConvolutionWeights(count: height, kernel: kernel))
        let mask = UnsharpMask(gain: gain, threshold: Int((max(0, min(threshold, 255)) * 256).rounded()), isOpaque: isOpaque)
        let (w, h, srcRow, blurRow) = (width, height, bytesPerRow, blurred.bytesPerRow)
        return try Bitmap(width: w, height: h, isOpaque: isOpaque, limits: limits) { dst, dstRow in
            let out = dst.baseAddress!  // a Bitmap is never empty
            try self.withUnsafeBytes { s in
                try blurred.withUnsafeBytes { b in
                    let (sp, bp) = (s.baseAddress!, b.baseAddress!)
                    // Bands of rows on idle cores: each output row reads one row of each input.
                    try RowBands.forEach(rows: h, width: w) { band in
                        for y in band { mask.row(sp + y * srcRow, blurred: bp + y * blurRow, into: out + y * dstRow, width: w) }
                    }
                }
            }
        }
    }
}

/// One row of the unsharp mask, in integers: luma in 1/256 levels, the gain in 1/4096ths.
struct UnsharpMask {
    /// Where the Gaussian is cut, relative to its peak: `vips sharpen`'s value.
    static let minimumAmplitude = 0.1

    let gain: Int
    /// In luma units of 1/256 level.
    let threshold: Int
    let isOpaque: Bool

    /// Rec. 709 luma of premultiplied bytes, in 1/256 levels (the weights sum to 256).
    @inline(__always)
    static func luma(_ p: UnsafePointer<UInt8>) -> Int { 54 * Int(p[0]) + 183 * Int(p[1]) + 19 * Int(p[2]) }

    func row(_ src: UnsafePointer<UInt8>, blurred: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, width: Int) {
        for x in 0..<width {
            let s = src + x * 4
            let b = blurred + x * 4
            let o = out + x * 4
            let alpha = Int(s[3])
            o[3] = s[3]
            var difference = Self.luma(s) - Self.luma(b)
            if !isOpaque {
                // Straight luma on both sides; the blurred copy's alpha is that of its own pixel.
                let blurredAlpha = Int(b[3])
                difference = alpha == 0 || blurredAlpha == 0 ? 0 : Self.luma(s) * 255 / alpha - Self.luma(b) * 255 / blurredAlpha
            }
            guard difference != 0, abs(difference) >= threshold else {
                o[0] = s[0]
                o[1] = s[1]
                o[2] = s[2]
                continue
            }
            // The straight offset, scaled by alpha into premultiplied terms, rounded to levels.
            let offset = (difference * alpha / 255 * gain + (1 << 19)) >> 20
            o[0] = UInt8(max(0, min(alpha, Int(s[0]) + offset)))
            o[1] = UInt8(max(0, min(alpha, Int(s[1]) + offset)))
            o[2] = UInt8(max(0, min(alpha, Int(s[2]) + offset)))
        }
    }
}
