/// Two-pass convolution of premultiplied RGBA8 with separate weights per axis: the engine under
/// resampling and Gaussian blur.
///
/// It works row by row so the data stays in cache: either each output row is first combined
/// vertically from its input rows into one temporary row, which is then filtered horizontally
/// ("vertical first"), or input rows are filtered horizontally into a small ring of rows that the
/// vertical pass combines ("horizontal first"). Both orders do the same arithmetic per tap; the
/// cheaper one is chosen from the sizes. An axis whose weights are the identity is skipped.
///
/// Intermediate rows are 8-bit, as in Pillow and libvips. Results are clamped to 0…255 and, for
/// images with alpha, each colour channel to its alpha, so the premultiplied invariant holds
/// even where Lanczos rings.
enum SeparableConvolution {
    static func apply(_ source: Bitmap, horizontal h: ConvolutionWeights, vertical v: ConvolutionWeights) throws -> Bitmap {
        precondition(h.inputCount == source.width && v.inputCount == source.height, "weights do not match the bitmap")
        let skipH = h.isIdentity
        let skipV = v.isIdentity
        if skipH && skipV {
            var copy = source
            copy.sizeBeforeShrinkOnLoad = nil
            return copy
        }
        let clampToAlpha = !source.isOpaque
        let outW = h.outputCount
        let outH = v.outputCount
        let inW = source.width
        let srcRow = source.bytesPerRow
        return try Bitmap(width: outW, height: outH, isOpaque: source.isOpaque, limits: source.limits) { dst, dstRow in
            let out = UnsafeMutableRawPointer(dst.baseAddress!)  // a Bitmap is never empty
            try source.withUnsafeBytes { srcBytes in
                let src = UnsafeRawPointer(srcBytes.baseAddress!)
                try h.withKernel { hk in
                    try v.withKernel { vk in
                        let verticalFirst = verticalFirstIsCheaper(h: h, v: v)
                        // Bands of output rows on idle cores; each band has its own scratch rows.
                        try RowBands.forEach(rows: outH, width: outW) { band in
                            if skipV {
                                for y in band {
                                    hk.row(src + y * srcRow, into: out + y * dstRow, clampToAlpha: clampToAlpha)
                                }
                            } else if skipH {
                                vk.withRowTable { rows in
                                    for y in band {
                                        for k in 0..<vk.taps { rows[k] = src + (vk.start(y) + k) * srcRow }
                                        vk.combine(rows, output: y, width: inW, into: out + y * dstRow, clampToAlpha: clampToAlpha)
                                    }
                                }
                            } else if verticalFirst {
                                let temp = try ScratchRows(count: 1, bytesPerRow: inW * 4, limits: source.limits)
                                defer { temp.release() }
                                vk.withRowTable { rows in
                                    for y in band {
                                        for k in 0..<vk.taps { rows[k] = src + (vk.start(y) + k) * srcRow }
                                        vk.combine(rows, output: y, width: inW, into: temp.base, clampToAlpha: false)
                                        hk.row(temp.base, into: out + y * dstRow, clampToAlpha: clampToAlpha)
                                    }
                                }
                            } else {
                                // A ring of `taps` horizontally filtered rows: input row r lives in
                                // slot r % taps. Window starts never decrease, so a slot is reused
                                // only once its row has left every later window. A band fills its
                                // ring from its own first window.
                                let ring = try ScratchRows(count: vk.taps, bytesPerRow: outW * 4, limits: source.limits)
                                defer { ring.release() }
                                var nextRow = 0
                                vk.withRowTable { rows in
                                    for y in band {
                                        let first = vk.start(y)
                                        nextRow = max(nextRow, first)
                                        while nextRow < first + vk.taps {
                                            hk.row(src + nextRow * srcRow, into: ring.row(nextRow % vk.taps), clampToAlpha: false)
                                            nextRow += 1
                                        }
                                        for k in 0..<vk.taps { rows[k] = UnsafeRawPointer(ring.row((first + k) % vk.taps)) }
                                        vk.combine(rows, output: y, width: outW, into: out + y * dstRow, clampToAlpha: clampToAlpha)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Compares the multiply-adds of the two orders. Measured on this code, one horizontal tap on
    /// a pixel costs about as much as one vertical tap on a pixel's four bytes, so pixel-taps are
    /// the unit for both.
    static func verticalFirstIsCheaper(h: ConvolutionWeights, v: ConvolutionWeights) -> Bool {
        let inH = Double(v.inputCount)
        let outH = Double(v.outputCount)
        let inW = Double(h.inputCount)
        let outW = Double(h.outputCount)
        let th = Double(h.taps)
        let tv = Double(v.taps)
        let horizontalFirst = min(inH, outH * tv) * outW * th + outH * outW * tv
        let verticalFirst = outH * inW * tv + outH * outW * th
        return verticalFirst < horizontalFirst
    }
}

/// Row buffers for intermediate results, reported to `PixelMemory` like any pixel buffer and
/// held to the same `limits` as the bitmap they are computed from.
struct ScratchRows {
    let base: UnsafeMutableRawPointer
    let bytesPerRow: Int

    init(count: Int, bytesPerRow: Int, limits: BitmapLimits) throws(BitmapError) {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: bytesPerRow)
        guard !overflow, bytes <= limits.maxPixelCount * 4 else {
            throw .tooLarge(width: bytesPerRow / 4, height: count, maxPixelCount: limits.maxPixelCount)
        }
        PixelMemory.reportAllocation(bytes: bytes)
        base = .allocate(byteCount: max(bytes, 16), alignment: 16)
        self.bytesPerRow = bytesPerRow
    }

    func row(_ index: Int) -> UnsafeMutableRawPointer { base + index * bytesPerRow }
    func release() { base.deallocate() }
}
