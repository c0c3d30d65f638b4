import DarkroomChains

/// Porter–Duff compositing of a solid colour with premultiplied RGBA8 pixels.
///
/// With premultiplied values the operators are plain sums of products (no division), which is why
/// `Bitmap` stores pixels that way. For a source colour S (premultiplied s, alpha αs) and a
/// destination pixel D (premultiplied d, alpha αd), per channel in 0…1:
///
///     source-over:  out = s + d·(1 − αs)          αout = αs + αd·(1 − αs)
///     source-atop:  out = s·αd + d·(1 − αs)       αout = αd
///
/// Source-over paints the colour everywhere (a fill when αs = 1); source-atop paints it only where
/// the image is, keeping the image's alpha — the operator behind `tint` and `overlay`.
public enum CompositeOperation: String, Sendable, CaseIterable {
    case sourceOver
    case sourceAtop
}

/// 8-bit fixed-point helpers shared by the kernels (public so plugin kernels can use them too).
public enum PixelArithmetic {
    /// `x / 255` rounded to nearest, exact for every `x` in 0…65535 (checked exhaustively by a test).
    @inlinable @inline(__always)
    public static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// `round(255·65536 / a)` for a in 1…255 (index 0 unused): multiplying a premultiplied channel by
    /// `reciprocal[a]` and shifting right by 16 un-premultiplies it without a division per pixel.
    public static let reciprocal: [UInt32] = (0...255).map { (a: Int) -> UInt32 in
        guard a > 0 else { return 0 }
        let numerator: Int = 255 * 65536 + a / 2
        return UInt32(numerator / a)
    }

    /// The straight value of premultiplied channel `c` under alpha `a` (1…255), rounded, ≤ 255.
    @inlinable @inline(__always)
    public static func unpremultiply(_ c: UInt32, reciprocal r: UInt32) -> UInt32 {
        min(255, (c &* r &+ 32768) >> 16)
    }
}

extension Bitmap {
    /// This image with a solid `color` composited onto every pixel with `operation`.
    ///
    /// Both operators are computed exactly on the premultiplied bytes (one rounding per channel).
    /// A colour with alpha 0 returns the image unchanged. When the result is fully determined by
    /// each byte on its own (source-over always; source-atop on an opaque image) the work is one
    /// 256-entry table look-up per byte.
    public func compositing(_ color: RGBAColor, _ operation: CompositeOperation) throws -> Bitmap {
        guard color.alpha != 0 else { return self }
        let s = color.premultiplied
        let keep = 255 - UInt32(s.a)  // the destination's weight, 1 − αs, in 0…255
        switch operation {
        case .sourceOver:
            // out = s + d·(1 − αs): a function of the byte alone, alpha included.
            func table(_ sc: UInt8) -> [UInt8] {
                (0...255).map { UInt8(UInt32(sc) + PixelArithmetic.div255(UInt32($0) * keep)) }
            }
            let tables = ChannelLookupTables(red: table(s.r), green: table(s.g), blue: table(s.b), alpha: table(s.a))
            return try mappingStoredBytes(tables, resultIsOpaque: isOpaque || color.isOpaque)
        case .sourceAtop where isOpaque:
            // αd = 1: out = s + d·(1 − αs), colour channels only.
            func table(_ sc: UInt8) -> [UInt8] {
                (0...255).map { UInt8(PixelArithmetic.div255(UInt32(sc) * 255 + UInt32($0) * keep)) }
            }
            let tables = ChannelLookupTables(red: table(s.r), green: table(s.g), blue: table(s.b), alpha: ChannelLookupTables.identityTable)
            return try mappingStoredBytes(tables, resultIsOpaque: true)
        case .sourceAtop:
            return try compositingAtopPerPixel(s, keep: keep)
        }
    }

    /// Source-atop for images with transparency: out = s·αd + d·(1 − αs), alpha kept.
    private func compositingAtopPerPixel(_ s: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), keep: UInt32) throws -> Bitmap {
        let sr = UInt32(s.r)
        let sg = UInt32(s.g)
        let sb = UInt32(s.b)
        let w = width
        return try mappingRows(isOpaque: isOpaque) { source, output in
            var i = source
            var o = output
            for _ in 0..<w {
                let a = UInt32(i[3])
                // s ≤ αs and d ≤ αd, so each sum is at most αs·αd + αd·(255 − αs) = 255·αd:
                // div255 is exact and the result never exceeds αd (still premultiplied).
                o[0] = UInt8(PixelArithmetic.div255(sr &* a &+ UInt32(i[0]) &* keep))
                o[1] = UInt8(PixelArithmetic.div255(sg &* a &+ UInt32(i[1]) &* keep))
                o[2] = UInt8(PixelArithmetic.div255(sb &* a &+ UInt32(i[2]) &* keep))
                o[3] = i[3]
                i += 4
                o += 4
            }
        }
    }
}
