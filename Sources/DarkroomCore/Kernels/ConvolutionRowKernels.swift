/// The inner loops of `SeparableConvolution`: one row filtered horizontally, or several rows
/// combined vertically, with the weights of one `ConvolutionWeights` axis.
///
/// Both are written with SIMD widening (`UInt8` → `Int32`) times 16-bit weights: on baseline
/// x86-64 (SSE2, which is what SwiftPM compiles for) LLVM turns these multiplies into `pmaddwd`,
/// where a 32-bit vector multiply would have to be emulated. Measured on a 750×422 → 400×225
/// reduce: about 2× faster than scalar 32-bit arithmetic and 10× faster than the same code with
/// `Float` vectors, whose conversions Swift does not lower well.
struct ConvolutionKernel {
    let taps: Int
    let outputCount: Int
    let starts: UnsafePointer<Int32>
    let offsets: UnsafePointer<Int32>
    let weights: UnsafePointer<Int16>

    private static let rounding = SIMD4<Int32>(repeating: 1 << (ConvolutionWeights.fractionBits - 1))

    /// First input index of output `i`'s window.
    @inline(__always)
    func start(_ i: Int) -> Int { Int(starts[i]) }

    /// Filters one row of premultiplied RGBA input into `outputCount` pixels at `dst`.
    @inline(__always)
    func row(_ src: UnsafeRawPointer, into dst: UnsafeMutableRawPointer, clampToAlpha: Bool) {
        let pairs = taps >> 1
        let odd = taps & 1 == 1
        for x in 0..<outputCount {
            var acc = Self.rounding
            var p = src + Int(starts[x]) * 4
            var w = weights + Int(offsets[x])
            for _ in 0..<pairs {
                // Two neighbouring pixels, each multiplied by its own weight.
                let px = SIMD8<Int16>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt8>.self))
                let wv = SIMD8<Int16>(w[0], w[0], w[0], w[0], w[1], w[1], w[1], w[1])
                let product = SIMD8<Int32>(truncatingIfNeeded: px) &* SIMD8<Int32>(truncatingIfNeeded: wv)
                acc &+= product.lowHalf &+ product.highHalf
                p += 8
                w += 2
            }
            if odd {
                let px = SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
                acc &+= px &* SIMD4<Int32>(repeating: Int32(w[0]))
            }
            Self.store(acc, to: dst + x * 4, clampToAlpha: clampToAlpha)
        }
    }

    /// Combines `taps` rows (pointers in `rows`) with output `y`'s weights into one row of
    /// `width` pixels at `dst`.
    @inline(__always)
    func combine(
        _ rows: UnsafeMutablePointer<UnsafeRawPointer>, output y: Int, width: Int,
        into dst: UnsafeMutableRawPointer, clampToAlpha: Bool
    ) {
        let w = weights + Int(offsets[y])
        let byteCount = width * 4
        var i = 0
        while i + 16 <= byteCount {
            var acc = SIMD16<Int32>(
                lowHalf: SIMD8(lowHalf: Self.rounding, highHalf: Self.rounding),
                highHalf: SIMD8(lowHalf: Self.rounding, highHalf: Self.rounding))
            for k in 0..<taps {
                let bytes = (rows[k] + i).loadUnaligned(as: SIMD16<UInt8>.self)
                acc &+= SIMD16<Int32>(truncatingIfNeeded: bytes) &* SIMD16<Int32>(repeating: Int32(w[k]))
            }
            var c = Self.clampToByte(acc &>> ConvolutionWeights.fractionBits)
            if clampToAlpha {
                let alpha = SIMD16<Int32>(
                    c[3], c[3], c[3], 255, c[7], c[7], c[7], 255,
                    c[11], c[11], c[11], 255, c[15], c[15], c[15], 255)
                c = Self.minimum(c, alpha)
            }
            (dst + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: c), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < byteCount {  // the last one to three pixels
            var acc = Self.rounding
            for k in 0..<taps {
                let px = SIMD4<Int32>(truncatingIfNeeded: (rows[k] + i).loadUnaligned(as: SIMD4<UInt8>.self))
                acc &+= px &* SIMD4<Int32>(repeating: Int32(w[k]))
            }
            Self.store(acc, to: dst + i, clampToAlpha: clampToAlpha)
            i += 4
        }
    }

    /// Rounds one accumulated pixel to bytes, clamped to 0…255 and, with alpha, colour ≤ alpha.
    @inline(__always)
    private static func store(_ acc: SIMD4<Int32>, to dst: UnsafeMutableRawPointer, clampToAlpha: Bool) {
        var c = clampToByte(acc &>> ConvolutionWeights.fractionBits)
        if clampToAlpha {
            c = minimum(c, SIMD4(c[3], c[3], c[3], 255))
        }
        dst.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: c), as: SIMD4<UInt8>.self)
    }
}

extension ConvolutionKernel {
    // Clamping with sign masks: `clamped`, `pointwiseMin` and `replacing(with:where:)` are left as
    // out-of-line generic calls (or scalarised) in these loops and cost more than the arithmetic.

    /// Each lane clamped to 0…255.
    @inline(__always)
    static func clampToByte<V: SIMD>(_ v: V) -> V where V.Scalar == Int32 {
        let positive = v & ~(v &>> 31)  // negative lanes → 0
        let over = (V(repeating: 255) &- positive) &>> 31  // all ones where > 255
        return (positive & ~over) | (V(repeating: 255) & over)
    }

    /// The lane-wise minimum of `a` and `b` (both within 0…255).
    @inline(__always)
    static func minimum<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar == Int32 {
        let over = (b &- a) &>> 31  // all ones where a > b
        return (a & ~over) | (b & over)
    }
}

extension ConvolutionWeights {
    /// Runs `body` with raw pointers to the weights, valid only inside it.
    func withKernel<R>(_ body: (ConvolutionKernel) throws -> R) rethrows -> R {
        try starts.withUnsafeBufferPointer { s in
            try offsets.withUnsafeBufferPointer { o in
                try weights.withUnsafeBufferPointer { w in
                    // None of the arrays is empty: a weights value has at least one output and tap.
                    try body(
                        ConvolutionKernel(
                            taps: taps, outputCount: outputCount,
                            starts: s.baseAddress!, offsets: o.baseAddress!, weights: w.baseAddress!))
                }
            }
        }
    }
}

extension ConvolutionKernel {
    /// A table of `taps` row pointers for `combine`, valid only inside `body`.
    func withRowTable<R>(_ body: (UnsafeMutablePointer<UnsafeRawPointer>) throws -> R) rethrows -> R {
        let table = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: taps)
        defer { table.deallocate() }
        return try body(table)
    }
}
