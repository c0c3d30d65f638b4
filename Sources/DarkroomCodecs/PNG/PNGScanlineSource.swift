import DarkroomCore

/// A bitmap's rows as PNG stores them, before filtering: RGB when the image is opaque (the alpha
/// byte dropped), straight-alpha RGBA otherwise (unpremultiplied with rounding).
struct PNGScanlineSource {
    let bitmap: Bitmap
    let opaque: Bool

    var channels: Int { opaque ? 3 : 4 }
    /// Bytes in one stored row, without the filter-type byte.
    var rowLength: Int { bitmap.width * channels }

    /// Converts row `y` of `pixels` (the bitmap's bytes) into `destination` (`rowLength` bytes).
    @inline(__always)
    func convertRow(_ y: Int, of pixels: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>) {
        let source = pixels + y * bitmap.bytesPerRow
        if opaque {
            AlphaKernels.dropAlpha(source, to: destination, pixelCount: bitmap.width)
        } else {
            AlphaKernels.unpremultiply(source, to: destination, pixelCount: bitmap.width)
        }
    }

    /// Writes rows `rows` of `pixels`, filtered with `strategy`, one after another from `output`
    /// (each `rowLength + 1` bytes with its filter-type byte). Rows depend only on the unfiltered row above,
    /// which is converted again here when the range does not start at the top, so ranges can be
    /// filtered at once on different threads and give the same bytes.
    func filterRows(
        _ rows: Range<Int>, of pixels: UnsafePointer<UInt8>, strategy: PNGFilterStrategy,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        let length = rowLength
        switch strategy {
        case .none:
            for y in rows {
                let line = output + (y - rows.lowerBound) * (length + 1)
                line[0] = PNGRowFilters.Kind.none.rawValue
                convertRow(y, of: pixels, to: line + 1)
            }
        case .adaptive:
            // Two unfiltered rows (above, current) and three candidate rows.
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * length)
            defer { scratch.deallocate() }
            var previous = scratch
            var current = scratch + length
            let candidates = scratch + 2 * length
            if rows.lowerBound > 0 {
                convertRow(rows.lowerBound - 1, of: pixels, to: previous)
            } else {
                previous.initialize(repeating: 0, count: length)
            }
            for y in rows {
                convertRow(y, of: pixels, to: current)
                PNGRowFilters.writeAdaptive(
                    current, previous: previous, length: length, bytesPerPixel: channels,
                    scratch: candidates, to: output + (y - rows.lowerBound) * (length + 1))
                swap(&previous, &current)
            }
        }
    }
}
