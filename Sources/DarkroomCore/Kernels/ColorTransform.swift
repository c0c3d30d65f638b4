/// The loops that run `ColorMatrix` and `ChannelLookupTables` over a bitmap.
///
/// Each reads the source rows (any stride) and writes a new tightly packed bitmap in one pass:
/// one pass over memory is the whole cost of these operations, so no copy-then-modify.
extension Bitmap {
    /// Every stored byte mapped through its channel's table, alpha included.
    ///
    /// On premultiplied data this is only meaningful for maps defined on premultiplied values
    /// (source-over of a constant colour) or for opaque images, where stored and straight colour
    /// are the same. `resultIsOpaque` is the caller's promise about the output.
    public func mappingStoredBytes(_ tables: ChannelLookupTables, resultIsOpaque: Bool) throws -> Bitmap {
        let w = width
        return try tables.withUnsafeTables { r, g, b, a in
            try mappingRows(isOpaque: resultIsOpaque) { source, output in
                var i = source
                var o = output
                for _ in 0..<w {
                    o[0] = r[Int(i[0])]
                    o[1] = g[Int(i[1])]
                    o[2] = b[Int(i[2])]
                    o[3] = a[Int(i[3])]
                    i += 4
                    o += 4
                }
            }
        }
    }

    /// This image with `matrix` applied to its colour, then `curves` applied to each straight
    /// (un-premultiplied) colour channel. Alpha is unchanged. Either may be nil; both nil (or an
    /// identity matrix and no curves) returns the image unchanged.
    ///
    /// The matrix runs on premultiplied values (exact, see `ColorMatrix`) with results clamped
    /// to 0…α, i.e. to 0…1 in straight terms, before the curves see them.
    public func applyingColorTransform(matrix: ColorMatrix?, curves: ChannelLookupTables?) throws -> Bitmap {
        let matrix = matrix.flatMap { $0.isIdentity ? nil : $0 }
        guard matrix != nil || curves != nil else { return self }
        if isOpaque, matrix == nil, let curves {
            return try mappingStoredBytes(
                ChannelLookupTables(red: curves.red, green: curves.green, blue: curves.blue),
                resultIsOpaque: true)
        }
        let m = FixedPointColorMatrix(matrix ?? .identity)
        if curves == nil, m.isGrayscale {
            return try grayscale(weights: m)
        }
        switch (matrix != nil, curves != nil) {
        case (true, false): return try transform(MatrixStage.self, m, curves)
        case (false, true): return try transform(CurvesStage.self, m, curves)
        default: return try transform(MatrixAndCurvesStages.self, m, curves)
        }
    }

    /// The per-pixel loop, specialised at compile time for each combination of stages (the
    /// generic parameter's constants fold the per-pixel `if`s away).
    private func transform<S: ColorTransformStages>(_: S.Type, _ m: FixedPointColorMatrix, _ curves: ChannelLookupTables?) throws -> Bitmap {
        let hasMatrix = S.matrix
        let hasCurves = S.curves
        let tables = curves ?? ChannelLookupTables(colorChannels: ChannelLookupTables.identityTable)
        // The matrix as scalars: SIMD types of Int do not vectorise this well on baseline x86-64.
        let (m00, m01, m02, m03) = (Int32(m.r[0]), Int32(m.r[1]), Int32(m.r[2]), Int32(m.r[3]))
        let (m10, m11, m12, m13) = (Int32(m.g[0]), Int32(m.g[1]), Int32(m.g[2]), Int32(m.g[3]))
        let (m20, m21, m22, m23) = (Int32(m.b[0]), Int32(m.b[1]), Int32(m.b[2]), Int32(m.b[3]))
        let w = width
        return try tables.withUnsafeTables { cr, cg, cb, _ in
            try PixelArithmetic.reciprocal.withUnsafeBufferPointer { rp in
                // Never nil: one reciprocal per alpha value.
                let recip = rp.baseAddress!
                return try mappingRows(isOpaque: isOpaque) { source, output in
                    var i = source
                    var o = output
                    for _ in 0..<w {
                        let a = Int32(i[3])
                        var r = Int32(i[0])
                        var g = Int32(i[1])
                        var b = Int32(i[2])
                        if hasMatrix {
                            // 16.16 fixed point; `>> 16` floors, the +32768 makes it round.
                            // FixedPointColorMatrix clamps coefficients so these sums fit in Int32.
                            let r2 = (m00 &* r &+ m01 &* g &+ m02 &* b &+ m03 &* a &+ 32768) >> 16
                            let g2 = (m10 &* r &+ m11 &* g &+ m12 &* b &+ m13 &* a &+ 32768) >> 16
                            let b2 = (m20 &* r &+ m21 &* g &+ m22 &* b &+ m23 &* a &+ 32768) >> 16
                            // Branch-free clamp to 0…a: saturated photos clamp often and
                            // unpredictably, and mispredicted branches cost more than the math.
                            @inline(__always) func clamp(_ v: Int32) -> Int32 {
                                let low = v & ~(v >> 31)  // max(0, v)
                                let d = low &- a
                                return a &+ (d & (d >> 31))  // min(a, low)
                            }
                            r = clamp(r2)
                            g = clamp(g2)
                            b = clamp(b2)
                        }
                        if hasCurves {
                            if a == 255 {
                                r = Int32(cr[Int(r)])
                                g = Int32(cg[Int(g)])
                                b = Int32(cb[Int(b)])
                            } else if a != 0 {
                                let k = recip[Int(a)]
                                let a32 = UInt32(a)
                                @inline(__always) func curve(_ v: Int32, _ table: UnsafePointer<UInt8>) -> Int32 {
                                    let straight = PixelArithmetic.unpremultiply(UInt32(v), reciprocal: k)
                                    return Int32(PixelArithmetic.div255(UInt32(table[Int(straight)]) &* a32))
                                }
                                r = curve(r, cr)
                                g = curve(g, cg)
                                b = curve(b, cb)
                            }
                        }
                        o[0] = UInt8(truncatingIfNeeded: r)
                        o[1] = UInt8(truncatingIfNeeded: g)
                        o[2] = UInt8(truncatingIfNeeded: b)
                        o[3] = UInt8(truncatingIfNeeded: a)
                        i += 4
                        o += 4
                    }
                }
            }
        }
    }

    /// Every channel set to the same non-negative weighted sum of r, g, b (weights summing to at
    /// most 1): the luma of premultiplied colour is premultiplied luma, so no clamping is needed.
    private func grayscale(weights m: FixedPointColorMatrix) throws -> Bitmap {
        let wr = UInt32(m.r[0])
        let wg = UInt32(m.r[1])
        let wb = UInt32(m.r[2])
        let w = width
        return try mappingRows(isOpaque: isOpaque) { source, output in
            var i = source
            var o = output
            for _ in 0..<w {
                let luma = UInt8(truncatingIfNeeded: (wr &* UInt32(i[0]) &+ wg &* UInt32(i[1]) &+ wb &* UInt32(i[2]) &+ 32768) >> 16)
                o[0] = luma
                o[1] = luma
                o[2] = luma
                o[3] = i[3]
                i += 4
                o += 4
            }
        }
    }
}

/// Which stages `applyingColorTransform` runs, as compile-time constants.
private protocol ColorTransformStages {
    static var matrix: Bool { get }
    static var curves: Bool { get }
}
private enum MatrixStage: ColorTransformStages {
    static var matrix: Bool { true }
    static var curves: Bool { false }
}
private enum CurvesStage: ColorTransformStages {
    static var matrix: Bool { false }
    static var curves: Bool { true }
}
private enum MatrixAndCurvesStages: ColorTransformStages {
    static var matrix: Bool { true }
    static var curves: Bool { true }
}
