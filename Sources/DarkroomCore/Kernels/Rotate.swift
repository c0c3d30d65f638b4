import DarkroomChains
import Foundation

/// Rotation by any angle, clockwise as seen on screen (y grows downwards).
///
/// Right angles (…, -90, 0, 90, 180, 270, … after reduction modulo 360) are exact pixel moves
/// through `Bitmap.applying(_:)`. Any other angle resamples with bicubic (Catmull-Rom)
/// interpolation on premultiplied pixels: the canvas grows to the rotated bounding box,
/// `rint(w·|cos θ| + h·|sin θ|) × rint(w·|sin θ| + h·|cos θ|)` as libvips computes it, the image is
/// centred on it, and everything outside the image reads as transparent before being composited
/// over `background`, so the edges are anti-aliased whatever the background.
extension Bitmap {
    /// This image turned `degrees` clockwise on a canvas large enough to hold all of it, the
    /// uncovered corners filled with `background`.
    public func rotated(byDegrees degrees: Double, background: RGBAColor) throws -> Bitmap {
        guard degrees.isFinite else { return withoutShrinkOnLoadSize() }
        var turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn < 0 { turn += 360 }
        switch turn {
        case 0: return withoutShrinkOnLoadSize()
        case 90: return try applying(.right).withoutShrinkOnLoadSize()
        case 180: return try applying(.down).withoutShrinkOnLoadSize()
        case 270: return try applying(.left).withoutShrinkOnLoadSize()
        default: return try rotatedResampling(radians: turn * .pi / 180, background: background)
        }
    }

    /// The canvas size libvips' `rotate` gives for this image and angle.
    public func rotatedCanvasSize(byDegrees degrees: Double) -> PixelSize {
        let r = degrees * .pi / 180
        let c = abs(cos(r))
        let s = abs(sin(r))
        let w = Double(width)
        let h = Double(height)
        return PixelSize(width: max(1, Int((w * c + h * s).rounded())), height: max(1, Int((w * s + h * c).rounded())))
    }

    func withoutShrinkOnLoadSize() -> Bitmap {
        var copy = self
        copy.sizeBeforeShrinkOnLoad = nil
        return copy
    }

    private func rotatedResampling(radians: Double, background: RGBAColor) throws -> Bitmap {
        let out = rotatedCanvasSize(byDegrees: radians * 180 / .pi)
        let cosT = cos(radians)
        let sinT = sin(radians)
        let inW = width
        let inH = height
        let srcRow = bytesPerRow
        let bg = background.premultiplied
        let bgVector = SIMD4<Int32>(Int32(bg.r), Int32(bg.g), Int32(bg.b), Int32(bg.a))
        let bgWord = SIMD4<UInt8>(bg.r, bg.g, bg.b, bg.a)
        return try Bitmap(width: out.width, height: out.height, isOpaque: isOpaque && background.isOpaque, limits: limits) { dst, dstRow in
            try self.withUnsafeBytes { srcBytes in
                let src = UnsafeRawPointer(srcBytes.baseAddress!)
                let d = UnsafeMutableRawPointer(dst.baseAddress!)
                let sampler = BicubicSampler(src: src, width: inW, height: inH, bytesPerRow: srcRow)
                // Output pixel centre (X + ½, Y + ½) relative to the canvas centre, turned back by
                // the angle, lands on input point (u, v); minus ½ gives pixel-centre coordinates.
                let halfW = Double(out.width) / 2
                let halfH = Double(out.height) / 2
                // Bands of rows on idle cores (`RowBands`): each output row is independent.
                try RowBands.forEach(rows: out.height, width: out.width) { band in
                    for y in band {
                        let dy = Double(y) + 0.5 - halfH
                        let rowU = dy * sinT + Double(inW) / 2 - 0.5
                        let rowV = dy * cosT + Double(inH) / 2 - 0.5
                        let line = d + y * dstRow
                        for x in 0..<out.width {
                            let dx = Double(x) + 0.5 - halfW
                            let u = rowU + dx * cosT
                            let v = rowV - dx * sinT
                            guard let sample = sampler.sample(u: u, v: v) else {
                                line.storeBytes(of: bgWord, toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                                continue
                            }
                            var c = ConvolutionKernel.clampToByte(sample)
                            c = ConvolutionKernel.minimum(c, SIMD4(c[3], c[3], c[3], 255))
                            if bg.a != 0 {
                                // Source over background, both premultiplied: s + bg × (255 − αs) / 255,
                                // the division rounded with the usual (x + 128 + (x + 128) >> 8) >> 8.
                                let x = bgVector &* (255 &- SIMD4(repeating: c[3])) &+ 128
                                c &+= (x &+ (x &>> 8)) &>> 8
                            }
                            line.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: c), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                        }
                    }
                }
            }
        }
    }
}

/// Catmull-Rom sampling of premultiplied RGBA, pixels outside the image reading as transparent.
struct BicubicSampler {
    let src: UnsafeRawPointer
    let width: Int
    let height: Int
    let bytesPerRow: Int

    /// The interpolated premultiplied pixel at pixel-centre coordinates (u, v), each channel in
    /// 0…255 before clamping; nil when the 4×4 neighbourhood lies wholly outside the image.
    @inline(__always)
    func sample(u: Double, v: Double) -> SIMD4<Int32>? {
        let fu = u.rounded(.down)
        let fv = v.rounded(.down)
        guard fu > -3, fv > -3, fu < Double(width + 1), fv < Double(height + 1) else { return nil }
        let x0 = Int(fu) - 1
        let y0 = Int(fv) - 1
        let wx = Self.weights(u - fu)
        let wy = Self.weights(v - fv)
        let inside = x0 >= 0 && y0 >= 0 && x0 + 3 < width && y0 + 3 < height
        var total = SIMD4<Int32>(repeating: 1 << 20)
        for j in 0..<4 {
            let y = y0 + j
            if !inside && (y < 0 || y >= height) { continue }
            let row = src + y * bytesPerRow
            var line = SIMD4<Int32>(repeating: 1 << 6)
            for i in 0..<4 {
                let x = x0 + i
                if !inside && (x < 0 || x >= width) { continue }
                let px = SIMD4<Int32>(truncatingIfNeeded: (row + x * 4).loadUnaligned(as: SIMD4<UInt8>.self))
                line &+= px &* SIMD4<Int32>(repeating: Int32(wx[i]))
            }
            // 14-bit weights twice: drop 7 bits in between so the sum stays inside Int32.
            total &+= (line &>> 7) &* SIMD4<Int32>(repeating: Int32(wy[j]))
        }
        return total &>> 21
    }

    /// Catmull-Rom weights for the four pixels around a point `t` (0 ≤ t < 1) past the second,
    /// in 14-bit fixed point summing to exactly 16384.
    @inline(__always)
    static func weights(_ t: Double) -> SIMD4<Int16> {
        let t2 = t * t
        let t3 = t2 * t
        let w0 = -0.5 * t3 + t2 - 0.5 * t
        let w2 = -1.5 * t3 + 2 * t2 + 0.5 * t
        let w3 = 0.5 * t3 - 0.5 * t2
        let q0 = Int16((w0 * 16384).rounded())
        let q2 = Int16((w2 * 16384).rounded())
        let q3 = Int16((w3 * 16384).rounded())
        return SIMD4(q0, 16384 - q0 - q2 - q3, q2, q3)
    }
}
