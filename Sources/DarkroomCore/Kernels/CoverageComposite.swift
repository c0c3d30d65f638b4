import DarkroomChains

/// Kernels that combine an image with a solid colour through rounded-rectangle coverage:
/// rounded corners (`clipped`) and borders (`framed`).
///
/// Both walk the image row by row, ask the shape for the row's coverage, and copy the runs the
/// shape leaves untouched with `memcpy`-speed moves; only pixels near an edge or a corner are
/// blended. For a large image with rounded corners that is a copy plus a few thousand blends.
extension Bitmap {
    /// This image inside `shape`, and `background` outside it: each pixel becomes
    /// `k·image + (1 − k)·background` (premultiplied) where k is the pixel's coverage, so the edge
    /// is anti-aliased against the background, whatever its alpha.
    public func clipped(to shape: RoundedRectCoverage, background: RGBAColor) throws -> Bitmap {
        let bg = background.premultiplied
        let bgWord = UInt32(bg.r) | UInt32(bg.g) << 8 | UInt32(bg.b) << 16 | UInt32(bg.a) << 24
        let bgr = UInt32(bg.r)
        let bgg = UInt32(bg.g)
        let bgb = UInt32(bg.b)
        let bga = UInt32(bg.a)
        let w = width
        let h = height
        let srcRow = bytesPerRow
        var lowestCoverage: UInt8 = 255
        var coverage = [UInt8](repeating: 0, count: w)
        var result = try Bitmap(width: w, height: h, isOpaque: false, limits: limits) { dst, dstRow in
            self.withUnsafeBytes { src in
                coverage.withUnsafeMutableBufferPointer { cov in
                    guard let sp = src.baseAddress, let dp = dst.baseAddress, let k = cov.baseAddress else { return }
                    for y in 0..<h {
                        let i = sp + y * srcRow
                        let o = dp + y * dstRow
                        let (solid, value) = shape.row(y, width: w, into: k)
                        @inline(__always) func mix(_ x: Int, _ c: UInt8) {
                            let p = i + 4 * x
                            let q = o + 4 * x
                            let kk = UInt32(c)
                            let rest = 255 - kk
                            q[0] = UInt8(PixelArithmetic.div255(UInt32(p[0]) &* kk &+ bgr &* rest))
                            q[1] = UInt8(PixelArithmetic.div255(UInt32(p[1]) &* kk &+ bgg &* rest))
                            q[2] = UInt8(PixelArithmetic.div255(UInt32(p[2]) &* kk &+ bgb &* rest))
                            q[3] = UInt8(PixelArithmetic.div255(UInt32(p[3]) &* kk &+ bga &* rest))
                        }
                        // Beside the solid run most coverage is still 0 or 255 (a large radius
                        // leaves big empty corners): move whole pixels there, blend only the rest.
                        @inline(__always) func put(_ x: Int) {
                            let c = k[x]
                            lowestCoverage = min(lowestCoverage, c)
                            if c == 255 {
                                UnsafeMutableRawPointer(o + 4 * x).storeBytes(of: UnsafeRawPointer(i + 4 * x).loadUnaligned(as: UInt32.self), as: UInt32.self)
                            } else if c == 0 {
                                UnsafeMutableRawPointer(o + 4 * x).storeBytes(of: bgWord.littleEndian, as: UInt32.self)
                            } else {
                                mix(x, c)
                            }
                        }
                        for x in 0..<solid.lowerBound { put(x) }
                        for x in solid.upperBound..<w { put(x) }
                        guard !solid.isEmpty else { continue }
                        lowestCoverage = min(lowestCoverage, value)
                        switch value {
                        case 255:
                            (o + 4 * solid.lowerBound).update(from: i + 4 * solid.lowerBound, count: 4 * solid.count)
                        case 0:
                            UnsafeMutableRawPointer(o + 4 * solid.lowerBound)
                                .bindMemory(to: UInt32.self, capacity: solid.count)
                                .update(repeating: bgWord.littleEndian, count: solid.count)
                        default:
                            for x in solid { mix(x, value) }
                        }
                    }
                }
            }
        }
        // Opaque out of opaque in, unless some pixel took part of a see-through background.
        result.isOpaque = isOpaque && (background.isOpaque || lowestCoverage == 255)
        result.sizeBeforeShrinkOnLoad = sizeBeforeShrinkOnLoad
        return result
    }

    /// This image with a frame of `color` composited over it between `outer` and `inner`, and
    /// transparent outside `outer`. Per pixel, with coverages kO ≥ kI: the image is first clipped
    /// to kO, then the colour at opacity (kO − kI)·α is composited over it source-over.
    public func framed(outer: RoundedRectCoverage, inner: RoundedRectCoverage, color: RGBAColor) throws -> Bitmap {
        let s = color.premultiplied
        let sr = UInt32(s.r)
        let sg = UInt32(s.g)
        let sb = UInt32(s.b)
        let sa = UInt32(s.a)
        let w = width
        let h = height
        let srcRow = bytesPerRow
        var lowestOuter: UInt8 = 255
        var outerCoverage = [UInt8](repeating: 0, count: w)
        var innerCoverage = [UInt8](repeating: 0, count: w)
        var result = try Bitmap(width: w, height: h, isOpaque: false, limits: limits) { dst, dstRow in
            self.withUnsafeBytes { src in
                outerCoverage.withUnsafeMutableBufferPointer { co in
                    innerCoverage.withUnsafeMutableBufferPointer { ci in
                        guard let sp = src.baseAddress, let dp = dst.baseAddress,
                            let ko = co.baseAddress, let ki = ci.baseAddress
                        else { return }
                        for y in 0..<h {
                            let i = sp + y * srcRow
                            let o = dp + y * dstRow
                            let (so, vo) = outer.row(y, width: w, into: ko)
                            let (si, vi) = inner.row(y, width: w, into: ki)
                            // Where both shapes cover fully the image shows unchanged: copy.
                            var copyStart = 0
                            var copyEnd = 0
                            if vo == 255, vi == 255 {
                                copyStart = max(so.lowerBound, si.lowerBound)
                                copyEnd = max(copyStart, min(so.upperBound, si.upperBound))
                            }
                            @inline(__always) func frame(_ x: Int) {
                                let outerK = so.contains(x) ? vo : ko[x]
                                let innerK = si.contains(x) ? vi : ki[x]
                                lowestOuter = min(lowestOuter, outerK)
                                let kO = UInt32(outerK)
                                let ring = outerK > innerK ? UInt32(outerK - innerK) : 0
                                let p = i + 4 * x
                                let q = o + 4 * x
                                let keep = 255 - PixelArithmetic.div255(ring &* sa)
                                @inline(__always) func channel(_ d: UInt8, _ sc: UInt32) -> UInt8 {
                                    let clippedD = PixelArithmetic.div255(UInt32(d) &* kO)
                                    return UInt8(min(255, PixelArithmetic.div255(ring &* sc) &+ PixelArithmetic.div255(keep &* clippedD)))
                                }
                                q[0] = channel(p[0], sr)
                                q[1] = channel(p[1], sg)
                                q[2] = channel(p[2], sb)
                                q[3] = channel(p[3], sa)
                            }
                            for x in 0..<copyStart { frame(x) }
                            for x in copyEnd..<w { frame(x) }
                            if copyEnd > copyStart {
                                (o + 4 * copyStart).update(from: i + 4 * copyStart, count: 4 * (copyEnd - copyStart))
                            }
                        }
                    }
                }
            }
        }
        // Colour over an opaque pixel stays opaque; only the outer clip can open holes.
        result.isOpaque = isOpaque && lowestOuter == 255
        result.sizeBeforeShrinkOnLoad = sizeBeforeShrinkOnLoad
        return result
    }
}
