/// Integer box reduction: each output pixel is the mean of an `fx × fy` block of input pixels.
///
/// The first half of a large reduction (see `Bitmap.resampled`): averaging whole blocks is exact,
/// touches each input byte once and leaves only a small factor for the Lanczos pass. Blocks at
/// the right and bottom edges may be partial; they average the pixels they have (as Pillow's
/// `reduce`). Averaging premultiplied values keeps colour ≤ alpha, and an opaque image stays
/// exactly opaque.
extension Bitmap {
    /// This image reduced by whole factors: `ceil(width / fx) × ceil(height / fy)` pixels.
    func boxShrunk(byX fx: Int, y fy: Int) throws -> Bitmap {
        precondition(fx >= 1 && fy >= 1 && fx * fy <= 4096 * 4096, "box factors out of range")
        let outW = (width + fx - 1) / fx
        let outH = (height + fy - 1) / fy
        let inW = width
        let inH = height
        let srcRow = bytesPerRow
        return try Bitmap(width: outW, height: outH, isOpaque: isOpaque, limits: limits) { dst, dstRow in
            // Column sums of the block's rows first, then the sums of each block's columns: every
            // input byte is touched once, in row order.
            try self.withUnsafeBytes { srcBytes in
                let src = srcBytes.baseAddress!
                let out = UnsafeMutableRawPointer(dst.baseAddress!)
                // Bands of output rows on idle cores, each with its own column sums.
                try RowBands.forEach(rows: outH, width: outW) { band in
                    let columnSums = UnsafeMutablePointer<UInt32>.allocate(capacity: inW * 4)
                    defer { columnSums.deallocate() }
                    for oy in band {
                        let y0 = oy * fy
                        let y1 = min(y0 + fy, inH)
                        Self.sumRows(from: src + y0 * srcRow, count: y1 - y0, stride: srcRow, byteCount: inW * 4, into: columnSums)
                        let rows = UInt64(y1 - y0)
                        let fullReciprocal = Self.reciprocal(rows * UInt64(fx))
                        let lastReciprocal = Self.reciprocal(rows * UInt64(inW - (outW - 1) * fx))
                        let d = (out + oy * dstRow).assumingMemoryBound(to: UInt8.self)
                        for ox in 0..<outW {
                            let x0 = ox * fx
                            let x1 = min(x0 + fx, inW)
                            var s0: UInt32 = 0
                            var s1: UInt32 = 0
                            var s2: UInt32 = 0
                            var s3: UInt32 = 0
                            var c = columnSums + x0 * 4
                            for _ in x0..<x1 {
                                s0 &+= c[0]
                                s1 &+= c[1]
                                s2 &+= c[2]
                                s3 &+= c[3]
                                c += 4
                            }
                            let reciprocal = ox == outW - 1 ? lastReciprocal : fullReciprocal
                            @inline(__always) func mean(_ s: UInt32) -> UInt8 {
                                UInt8(truncatingIfNeeded: (UInt64(s) * reciprocal + (1 << 31)) >> 32)
                            }
                            d[ox * 4] = mean(s0)
                            d[ox * 4 + 1] = mean(s1)
                            d[ox * 4 + 2] = mean(s2)
                            d[ox * 4 + 3] = mean(s3)
                        }
                    }
                }
            }
        }
    }

    /// Adds up `count` rows of bytes column by column into `sums` (overwriting it): the first row
    /// initialises the sums and later rows are added two at a time, so the sums row, which may
    /// not fit the L1 cache, is read and written half as often.
    private static func sumRows(
        from first: UnsafePointer<UInt8>, count: Int, stride: Int, byteCount: Int,
        into sums: UnsafeMutablePointer<UInt32>
    ) {
        let s = UnsafeMutableRawPointer(sums)
        let r0 = UnsafeRawPointer(first)
        var i = 0
        while i + 16 <= byteCount {
            s.storeBytes(
                of: SIMD16<UInt32>(truncatingIfNeeded: (r0 + i).loadUnaligned(as: SIMD16<UInt8>.self)),
                toByteOffset: i * 4, as: SIMD16<UInt32>.self)
            i += 16
        }
        while i < byteCount {
            sums[i] = UInt32(r0.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        var row = 1
        while row < count {
            let a = r0 + row * stride
            let b = row + 1 < count ? a + stride : nil
            i = 0
            while i + 16 <= byteCount {
                var sum = (s + i * 4).loadUnaligned(as: SIMD16<UInt32>.self)
                sum &+= SIMD16<UInt32>(truncatingIfNeeded: (a + i).loadUnaligned(as: SIMD16<UInt8>.self))
                if let b { sum &+= SIMD16<UInt32>(truncatingIfNeeded: (b + i).loadUnaligned(as: SIMD16<UInt8>.self)) }
                (s + i * 4).storeBytes(of: sum, as: SIMD16<UInt32>.self)
                i += 16
            }
            while i < byteCount {
                sums[i] &+= UInt32(a.load(fromByteOffset: i, as: UInt8.self))
                if let b { sums[i] &+= UInt32(b.load(fromByteOffset: i, as: UInt8.self)) }
                i += 1
            }
            row += 2
        }
    }

    /// `2³² / count`, rounded: dividing a block's sum by its pixel count becomes a multiply and
    /// a shift. For blocks up to 4096² pixels the error stays below half a unit, so a flat block
    /// keeps its exact value.
    @inline(__always)
    private static func reciprocal(_ count: UInt64) -> UInt64 {
        ((1 << 32) + count / 2) / count
    }
}
