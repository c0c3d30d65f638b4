import DarkroomChains

/// The separable blend modes of W3C Compositing and Blending Level 1 (§10.1), and the kernel that
/// blends a solid colour layer onto an image with them.
///
/// A blend mode B(Cb, Cs) says what colour results where a source colour Cs lies over a backdrop
/// colour Cb (straight values in 0…1, per channel). The spec then mixes that result with the
/// source by the backdrop's alpha and composites it with a Porter–Duff operator (§9):
///
///     Cs′ = (1 − αb)·Cs + αb·B(Cb, Cs)
///     source-atop:  co = αs·αb·Cs′ + (1 − αs)·cb     αo = αb       (cb = αb·Cb, premultiplied)
///
/// Darkroom composites source-atop, so the image's alpha is kept: on opaque pixels this is the
/// familiar `αs·B(Cb, Cs) + (1 − αs)·Cb`; on semi-transparent ones the source colour itself
/// shows in proportion to 1 − αb, exactly as a browser renders `mix-blend-mode` over a
/// semi-transparent element.
public enum BlendMode: String, Sendable, CaseIterable, Hashable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
    case hardLight, softLight, difference, exclusion

    /// B(Cb, Cs) for straight channel values in 0…1.
    public func blend(backdrop cb: Double, source cs: Double) -> Double {
        switch self {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return Self.screen(cb, cs)
        case .overlay: return Self.hardLight(backdrop: cs, source: cb)  // HardLight with the layers swapped
        case .darken: return min(cb, cs)
        case .lighten: return max(cb, cs)
        case .colorDodge:
            if cb == 0 { return 0 }
            if cs >= 1 { return 1 }
            return min(1, cb / (1 - cs))
        case .colorBurn:
            if cb >= 1 { return 1 }
            if cs <= 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case .hardLight: return Self.hardLight(backdrop: cb, source: cs)
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        case .difference: return abs(cb - cs)
        case .exclusion: return cb + cs - 2 * cb * cs
        }
    }

    private static func screen(_ cb: Double, _ cs: Double) -> Double { cb + cs - cb * cs }

    private static func hardLight(backdrop cb: Double, source cs: Double) -> Double {
        cs <= 0.5 ? cb * 2 * cs : screen(cb, 2 * cs - 1)
    }
}

extension Bitmap {
    /// This image with a layer of solid `color` blended onto it by `mode`, composited source-atop
    /// (see `BlendMode`): the image's alpha is unchanged, and `color.alpha` is the layer's opacity.
    ///
    /// The source colour is constant, so for an opaque pixel the result is a function of each
    /// channel byte alone: one 256-entry table per channel, computed once, runs the whole image.
    /// Semi-transparent pixels are un-premultiplied, looked up in a table of B(Cb, Cs), and mixed
    /// by the full formula in floating point.
    public func blending(_ color: RGBAColor, mode: BlendMode) throws -> Bitmap {
        guard color.alpha != 0 else { return self }
        let alphaS = Double(color.alpha) / 255
        let source = [Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255]
        // blended[c][v] = B(v/255, Cs_c): the blend result for straight backdrop byte v.
        let blended = source.map { cs in (0...255).map { mode.blend(backdrop: Double($0) / 255, source: cs) } }
        // Opaque backdrop: co = αs·B + (1 − αs)·Cb.
        let opaque = blended.map { column in
            (0...255).map { v in
                UInt8(max(0, min(255, (255 * (alphaS * column[v] + (1 - alphaS) * Double(v) / 255)).rounded())))
            }
        }
        let tables = ChannelLookupTables(red: opaque[0], green: opaque[1], blue: opaque[2])
        if isOpaque { return try mappingStoredBytes(tables, resultIsOpaque: true) }

        // Semi-transparent pixels: co·255 = 255·αs·αb·(1 − αb)·Cs + 255·αs·αb²·B + (1 − αs)·cb. The
        // factors depending on αb are tabled per alpha value, B per un-premultiplied byte.
        let bTables = blended.map { $0.map { Float($0) } }
        let aS = Float(alphaS)
        let keep = 1 - aS
        let mixB: [Float] = (0...255).map { a in
            let ab = Float(a) / 255
            return 255 * aS * ab * ab
        }
        let mixS: [[Float]] = source.map { cs in
            (0...255).map { a in
                let ab = Float(a) / 255
                return 255 * aS * ab * (1 - ab) * Float(cs)
            }
        }
        let w = width
        let h = height
        let srcRow = bytesPerRow
        var result = try Bitmap(width: w, height: h, isOpaque: false, limits: limits) { dst, dstRow in
            self.withUnsafeBytes { src in
                tables.red.withUnsafeBufferPointer { tr in
                    tables.green.withUnsafeBufferPointer { tg in
                        tables.blue.withUnsafeBufferPointer { tb in
                            bTables[0].withUnsafeBufferPointer { fr in
                                bTables[1].withUnsafeBufferPointer { fg in
                                    bTables[2].withUnsafeBufferPointer { fb in
                                        mixS[0].withUnsafeBufferPointer { s0 in
                                            mixS[1].withUnsafeBufferPointer { s1 in
                                                mixS[2].withUnsafeBufferPointer { s2 in
                                                    mixB.withUnsafeBufferPointer { mb in
                                                        PixelArithmetic.reciprocal.withUnsafeBufferPointer { rp in
                                                            guard let sp = src.baseAddress, let dp = dst.baseAddress, let lr = tr.baseAddress,
                                                                let lg = tg.baseAddress, let lb = tb.baseAddress, let br = fr.baseAddress,
                                                                let bg = fg.baseAddress, let bb = fb.baseAddress, let sr = s0.baseAddress,
                                                                let sg = s1.baseAddress, let sb = s2.baseAddress, let mixBp = mb.baseAddress,
                                                                let recip = rp.baseAddress
                                                            else { return }
                                                            for y in 0..<h {
                                                                var i = sp + y * srcRow
                                                                var o = dp + y * dstRow
                                                                for _ in 0..<w {
                                                                    let a = i[3]
                                                                    if a == 255 {
                                                                        o[0] = lr[Int(i[0])]
                                                                        o[1] = lg[Int(i[1])]
                                                                        o[2] = lb[Int(i[2])]
                                                                    } else if a == 0 {
                                                                        o[0] = 0
                                                                        o[1] = 0
                                                                        o[2] = 0
                                                                    } else {
                                                                        let ai = Int(a)
                                                                        let k = recip[ai]
                                                                        let mB = mixBp[ai]
                                                                        let limit = Int(a)
                                                                        @inline(__always) func channel(_ c: UInt8, _ base: Float, _ table: UnsafePointer<Float>)
                                                                            -> UInt8
                                                                        {
                                                                            let cb = Int(PixelArithmetic.unpremultiply(UInt32(c), reciprocal: k))
                                                                            let v = base + mB * table[cb] + keep * Float(c)
                                                                            // v ≥ 0, so truncating v + 0.5 rounds (rounded() is a libm call);
                                                                            // the clamp keeps the byte premultiplied (≤ α) whatever the input.
                                                                            return UInt8(max(0, min(limit, Int(v + 0.5))))
                                                                        }
                                                                        o[0] = channel(i[0], sr[ai], br)
                                                                        o[1] = channel(i[1], sg[ai], bg)
                                                                        o[2] = channel(i[2], sb[ai], bb)
                                                                    }
                                                                    o[3] = a
                                                                    i += 4
                                                                    o += 4
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        result.isOpaque = false
        result.sizeBeforeShrinkOnLoad = sizeBeforeShrinkOnLoad
        return result
    }
}
