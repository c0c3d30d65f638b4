/// PNG's per-row filters (RFC 2083 §6): each row is stored as its difference from a prediction,
/// which DEFLATE compresses far better than raw pixels on photographs.
///
/// `PNGEncoder` picks one of two strategies per image (`PNGFilterStrategy`): no filter, which
/// wins on flat, text-like images (screenshots, UI), or per-row adaptive filtering. Adaptive rows
/// take whichever of Sub, Up and Paeth has the smallest sum of absolute differences (libpng's
/// heuristic). Average and None are left out of the per-row choice: measured on the corpus and the
/// 4000×3000 inputs, they won almost no rows and cost a fifth of the filtering time.
enum PNGRowFilters {
    /// The filter-type byte PNG stores before each row.
    enum Kind: UInt8 {
        case none = 0
        case sub = 1
        case up = 2
        case paeth = 4
    }

    /// Writes `row` unfiltered: the type byte 0, then the row.
    @inline(__always)
    static func writeUnfiltered(_ row: UnsafePointer<UInt8>, length: Int, to output: UnsafeMutablePointer<UInt8>) {
        output[0] = Kind.none.rawValue
        (output + 1).update(from: row, count: length)
    }

    /// Writes the type byte and the filtered bytes of `row` to `output` (`length + 1` bytes),
    /// choosing among Sub, Up and Paeth. `previous` is the unfiltered row above (all zeros for
    /// the first row, as PNG defines it). `scratch` holds `3 × length` bytes.
    @inline(__always)
    static func writeAdaptive(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, length: Int, bytesPerPixel: Int,
        scratch: UnsafeMutablePointer<UInt8>, to output: UnsafeMutablePointer<UInt8>
    ) {
        let sub = scratch
        let up = scratch + length
        let paeth = scratch + 2 * length
        var sumSub = 0
        var sumUp = 0
        var sumPaeth = 0
        // The first pixel has no left neighbour: Sub is the byte itself, Paeth predicts from above.
        for i in 0..<min(bytesPerPixel, length) {
            let x = row[i]
            let b = previous[i]
            sub[i] = x
            up[i] = x &- b
            paeth[i] = x &- b
            sumSub &+= magnitude(sub[i])
            sumUp &+= magnitude(up[i])
            sumPaeth &+= magnitude(paeth[i])
        }
        var i = bytesPerPixel
        while i < length {
            let x = row[i]
            let a = row[i - bytesPerPixel]
            let b = previous[i]
            let c = previous[i - bytesPerPixel]
            let s = x &- a
            let u = x &- b
            let p = x &- predictPaeth(a, b, c)
            sub[i] = s
            up[i] = u
            paeth[i] = p
            sumSub &+= magnitude(s)
            sumUp &+= magnitude(u)
            sumPaeth &+= magnitude(p)
            i += 1
        }
        // Ties go to the cheaper predictor, which decoders also undo faster.
        let (kind, bytes): (Kind, UnsafeMutablePointer<UInt8>) =
            sumUp <= sumSub && sumUp <= sumPaeth ? (.up, up) : (sumSub <= sumPaeth ? (.sub, sub) : (.paeth, paeth))
        output[0] = kind.rawValue
        (output + 1).update(from: bytes, count: length)
    }

    /// A filtered byte read as a signed difference, by size: 0…128.
    @inline(__always)
    private static func magnitude(_ value: UInt8) -> Int {
        value < 128 ? Int(value) : 256 - Int(value)
    }

    /// The Paeth predictor: whichever of left, above and upper-left is closest to
    /// left + above − upper-left, ties in that order.
    @inline(__always)
    static func predictPaeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a)
        let ib = Int(b)
        let ic = Int(c)
        let pa = abs(ib - ic)
        let pb = abs(ia - ic)
        let pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
