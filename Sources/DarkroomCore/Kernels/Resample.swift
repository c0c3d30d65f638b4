import DarkroomChains
import Foundation

/// Lanczos-3 resampling of premultiplied RGBA: what `downsample` and `resize` use.
///
/// Separable, in two passes (see `SeparableConvolution`), with the weights of each output column
/// and row computed once. When reducing, the filter is widened by the scale factor so every input
/// pixel contributes (a proper low-pass, no aliasing); when enlarging it is plain Lanczos-3.
/// Pixel centres are aligned (output `i` samples the input at `(i + 0.5) × scale`), edges extend
/// with a copy of the edge pixel, as libvips does. Reductions by 4× or more on an axis first
/// average whole blocks of pixels (see `Bitmap.boxShrunk`), leaving a Lanczos step of 2–4×: the
/// "reducing gap" of 2 that libvips and Pillow both use, which keeps big reductions fast and the
/// fixed-point weights precise.
extension Bitmap {
    /// This image scaled to exactly `size` (aspect ratio not kept).
    public func resampled(to size: PixelSize) throws -> Bitmap {
        try resampled(to: size, from: (x: 0, y: 0, width: Double(width), height: Double(height)))
    }

    /// The part of this image inside `region` (in pixels, may be fractional) scaled to `size`.
    /// Used by `resize(fill)` to reduce only the area it keeps. The region is clamped to the image.
    public func resampled(to size: PixelSize, from region: (x: Double, y: Double, width: Double, height: Double)) throws -> Bitmap {
        // Checked before the box pre-shrink so an impossible target fails without any work.
        try limits.check(width: size.width, height: size.height)
        let rx = Self.clampRange(start: region.x, length: region.width, within: width)
        let ry = Self.clampRange(start: region.y, length: region.height, within: height)

        // Reducing gap: box-average by the largest whole factor that leaves at least 2× for Lanczos.
        let fx = Self.boxFactor(inputLength: rx.length, outputCount: size.width)
        let fy = Self.boxFactor(inputLength: ry.length, outputCount: size.height)
        if fx > 1 || fy > 1 {
            let shrunk = try boxShrunk(byX: fx, y: fy)
            return try shrunk.lanczos(
                to: size, x: (rx.start / Double(fx), rx.length / Double(fx)),
                y: (ry.start / Double(fy), ry.length / Double(fy)))
        }
        return try lanczos(to: size, x: rx, y: ry)
    }

    private func lanczos(to size: PixelSize, x: (start: Double, length: Double), y: (start: Double, length: Double)) throws -> Bitmap {
        let h = ConvolutionWeights.lanczos3(inputCount: width, outputCount: size.width, start: x.start, length: x.length)
        let v = ConvolutionWeights.lanczos3(inputCount: height, outputCount: size.height, start: y.start, length: y.length)
        return try SeparableConvolution.apply(self, horizontal: h, vertical: v)
    }

    /// Whole-block factor for the box pre-shrink: `floor(scale / 2)`, at least 1. Capped so a
    /// block's sum of bytes fits in 32 bits even for both axes at once (4096² × 255 < 2³²).
    static func boxFactor(inputLength: Double, outputCount: Int) -> Int {
        let scale = inputLength / Double(outputCount)
        guard scale >= 4 else { return 1 }
        return min(Int(scale / 2), 4096)
    }

    private static func clampRange(start: Double, length: Double, within count: Int) -> (start: Double, length: Double) {
        let total = Double(count)
        guard start.isFinite, length.isFinite, length > 0 else { return (0, total) }
        let s = min(max(start, 0), total - 1e-9)
        return (s, min(length, total - s))
    }
}

extension ConvolutionWeights {
    /// Lanczos-3 weights mapping `length` input pixels from `start` onto `outputCount` outputs.
    static func lanczos3(inputCount: Int, outputCount: Int, start: Double = 0, length: Double? = nil) -> ConvolutionWeights {
        let scale = (length ?? Double(inputCount)) / Double(outputCount)
        let filterScale = max(1, scale)  // widen the filter when reducing
        let support = 3 * filterScale
        let windowLength = Int((2 * support).rounded(.up)) + 2
        return LanczosTable.shared.withUnsafeBufferPointer { table in
            ConvolutionWeights(inputCount: inputCount, outputCount: outputCount, windowLength: windowLength) { i, values in
                let centre = start + (Double(i) + 0.5) * scale
                let first = Int((centre - support).rounded(.down))
                let position = Double(first) + 0.5 - centre
                for k in 0..<windowLength {
                    values[k] = LanczosTable.value(table, at: (position + Double(k)) / filterScale)
                }
                return first
            }
        }
    }
}

/// Lanczos-3, `sinc(x) · sinc(x / 3)` for |x| < 3, tabulated: weights for a large reduction
/// need tens of thousands of evaluations, and two `sin` calls each cost more than the
/// resampling itself on a thumbnail. Linear interpolation between 1/1024 steps is accurate to
/// about 1e-6, far below the 14-bit (6e-5) precision of the weights.
enum LanczosTable {
    static let stepsPerUnit = 1024
    static let shared: [Double] = (0...(3 * stepsPerUnit + 1)).map { exact(Double($0) / Double(stepsPerUnit)) }

    @inline(__always)
    static func value(_ table: UnsafeBufferPointer<Double>, at x: Double) -> Double {
        let t = abs(x) * Double(stepsPerUnit)
        guard t < Double(3 * stepsPerUnit) else { return 0 }
        let i = Int(t)
        let f = t - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    static func exact(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 1e-9 { return 1 }
        if ax >= 3 { return 0 }
        let px = Double.pi * ax
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
