extension Bitmap {
    /// A new tightly packed bitmap of this size, written in one pass row by row: `row` gets the
    /// start of each source row (at this bitmap's stride) and of the matching output row, and
    /// writes `width` pixels. The result keeps `sizeBeforeShrinkOnLoad`.
    ///
    /// The kernels that map each pixel to one output pixel share this walk. `row` runs once per
    /// row, not per pixel: the pixel loop stays inside it, where the optimiser sees it whole, and
    /// this helper is inlined into each kernel besides.
    @inline(__always)
    func mappingRows(
        isOpaque: Bool,
        _ row: (_ source: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>) -> Void
    ) throws -> Bitmap {
        let h = height
        let srcRow = bytesPerRow
        let w = width
        var result = try Bitmap(width: width, height: h, isOpaque: isOpaque, limits: limits) { dst, dstRow in
            try self.withUnsafeBytes { src in
                guard let sp = src.baseAddress, let dp = dst.baseAddress else { return }
                // Bands of rows on idle cores (`RowBands`): each row is independent.
                try RowBands.forEach(rows: h, width: w) { band in
                    for y in band { row(sp + y * srcRow, dp + y * dstRow) }
                }
            }
        }
        result.sizeBeforeShrinkOnLoad = sizeBeforeShrinkOnLoad
        return result
    }
}
