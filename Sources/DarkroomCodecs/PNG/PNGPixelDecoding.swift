import CSpng
import DarkroomCore

/// The row loop of `PNGDecoder`: libspng's progressive API writing into the bitmap's storage.
///
/// 8-bit images are decoded by `spng_decode_row` straight into their final rows (for Adam7 each
/// pass fills its own columns of the row), so the only pixel buffer is the bitmap itself.
/// 16-bit images go through one RGBA16 scanline of scratch and are narrowed with rounding.
/// Premultiplication happens row by row while the row is still in cache, except for Adam7
/// 8-bit images, whose rows are only complete after the last pass.
enum PNGPixelDecoding {
    static func decode(
        _ reader: borrowing SpngReader, header: spng_ihdr, hasAlpha: Bool, bitmapLimits: BitmapLimits,
        strict: Bool
    ) throws(CodecError) -> Bitmap {
        let width = Int(header.width)
        let height = Int(header.height)
        let interlaced = header.interlace_method != UInt8(SPNG_INTERLACE_NONE.rawValue)
        let sixteenBit = header.bit_depth == 16
        try reader.startDecoding(format: sixteenBit ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8)

        var opaque = true
        var bitmap = try CodecBitmap.make(
            width: width, height: height, limits: bitmapLimits,
            source: reader.source
        ) { bytes, bytesPerRow throws(CodecError) in
            guard let base = bytes.baseAddress else { return }
            if interlaced && !strict {
                // A pass may break off; pixels no pass reached must still be defined (transparent).
                bytes.update(repeating: 0)
            }
            var rows = RowLoop(
                base: base, bytesPerRow: bytesPerRow, width: width, height: height,
                interlaced: interlaced, strict: strict, source: reader.source)
            if sixteenBit {
                try rows.runSixteenBit(reader)
            } else {
                try rows.runEightBit(reader, premultiply: hasAlpha)
            }
            opaque = rows.opaque
        }
        bitmap.isOpaque = opaque
        if strict {
            try reader.finish()
        }
        return bitmap
    }

    /// State of one pass over the rows: where they go and what was seen.
    private struct RowLoop {
        let base: UnsafeMutablePointer<UInt8>
        let bytesPerRow: Int
        let width: Int
        let height: Int
        let interlaced: Bool
        let strict: Bool
        let source: String
        /// Every written alpha so far was 255 and no row was left blank.
        var opaque = true
        private var decodedRows = 0

        init(base: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, width: Int, height: Int, interlaced: Bool, strict: Bool, source: String) {
            self.base = base
            self.bytesPerRow = bytesPerRow
            self.width = width
            self.height = height
            self.interlaced = interlaced
            self.strict = strict
            self.source = source
        }

        mutating func runEightBit(_ reader: borrowing SpngReader, premultiply: Bool) throws(CodecError) {
            let rowBytes = width * 4
            var more = true
            while more {
                let y: Int
                do throws(CodecError) {
                    y = try nextRow(reader).y
                    more = try reader.decodeRow(into: base + y * bytesPerRow, length: rowBytes)
                } catch {
                    try salvage(after: error)
                    break
                }
                decodedRows += 1
                if premultiply && !interlaced {
                    opaque = AlphaKernels.premultiplyInPlace(base + y * bytesPerRow, pixelCount: width) && opaque
                }
            }
            if premultiply && interlaced {
                for y in 0..<height {
                    opaque = AlphaKernels.premultiplyInPlace(base + y * bytesPerRow, pixelCount: width) && opaque
                }
            }
        }

        mutating func runSixteenBit(_ reader: borrowing SpngReader) throws(CodecError) {
            let scanlineBytes = width * 8
            let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: width * 4)
            defer { scratch.deallocate() }
            var alphaAnd: UInt8 = 255
            var more = true
            while more {
                let y: Int
                let pass: Int
                do throws(CodecError) {
                    (y, pass) = try nextRow(reader)
                    more = try reader.decodeScanline(into: scratch, length: scanlineBytes)
                } catch {
                    try salvage(after: error)
                    break
                }
                decodedRows += 1
                let place = PNGScanlines.placement(pass: pass, interlaced: interlaced, imageWidth: width)
                alphaAnd &= PNGScanlines.narrowAndPremultiply(
                    scratch, count: place.count,
                    to: base + y * bytesPerRow + place.xStart * 4,
                    xStep: place.xStep)
            }
            opaque = opaque && alphaAnd == 255
        }

        /// The image row the next decode call writes. libspng has a row to give until it has
        /// answered `SPNG_EOI`, so a missing one (or one outside the image) means corrupt data.
        private func nextRow(_ reader: borrowing SpngReader) throws(CodecError) -> (y: Int, pass: Int) {
            guard let info = reader.nextRow() else {
                throw CodecError(.corrupt, source: source, "corrupt PNG: libspng stopped after \(decodedRows) rows of \(height)")
            }
            let y = Int(info.row_num)
            guard y < height else { throw corruptRow(y) }
            return (y, Int(info.pass))
        }

        /// Strict: rethrows. Lenient: keeps what was decoded when that is at least one row,
        /// clearing the rows a non-interlaced decode never reached (rows come in order, so the
        /// first of them is `decodedRows`; an interlaced bitmap was cleared up front).
        private mutating func salvage(after error: CodecError) throws(CodecError) {
            guard !strict, decodedRows > 0 else { throw error }
            opaque = false
            if !interlaced {
                for y in decodedRows..<height {
                    (base + y * bytesPerRow).update(repeating: 0, count: width * 4)
                }
            }
        }

        private func corruptRow(_ y: Int) -> CodecError {
            CodecError(.corrupt, source: source, "corrupt PNG: libspng reported row \(y) of an image \(height) rows high")
        }
    }
}
