import CGif
import DarkroomCore

/// Draws a frame of a GIF onto its canvas: the first frame onto a transparent one, or any frame
/// of an animation onto what the frames before it left.
///
/// The frame is decoded row by row with `DGifGetLine` into one line of indices, or its indices
/// were decoded ahead on another thread (`GIFFrameIndices`); either way each row is mapped
/// through a 256-entry premultiplied colour table straight into the canvas. Pixels of the
/// transparent index are not drawn, so the canvas shows through them. Rows and columns outside
/// the logical screen are decoded (the LZW stream must be consumed) but not drawn.
enum GIFFrameDrawing {
    /// The row order of an interlaced frame: four passes of (first row, step).
    private static let interlacePasses = [(0, 8), (4, 8), (2, 4), (1, 2)]

    /// The palette as premultiplied RGBA words, in memory order R, G, B, A. Indices past the
    /// table are opaque black (what most browsers show); the transparent index is (0, 0, 0, 0).
    static func palette(_ colors: [GifColorType], transparentIndex: Int?) -> [UInt32] {
        var table = [UInt32](repeating: pack(0, 0, 0, 255), count: 256)
        for (i, c) in colors.prefix(256).enumerated() {
            table[i] = pack(c.Red, c.Green, c.Blue, 255)
        }
        if let transparentIndex, (0..<256).contains(transparentIndex) {
            table[transparentIndex] = 0
        }
        return table
    }

    /// Decodes the current frame (`header`, just read) into `canvas`, leaving the canvas as it
    /// was under pixels of `transparentIndex`. Returns false when the data broke off and lenient
    /// mode kept the rows decoded so far; throws in strict mode.
    static func draw(
        _ file: borrowing GIFFile, header: GIFFile.ImageHeader, palette: [UInt32], transparentIndex: Int?,
        into canvas: inout Bitmap, strict: Bool
    ) throws(CodecError) -> Bool {
        let width = header.rect.width
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
        defer { line.deallocate() }
        return try draw(header: header, palette: palette, transparentIndex: transparentIndex, into: &canvas, strict: strict) {
            _ throws(CodecError) in
            try file.readLine(into: line, count: width)
            return UnsafePointer(line)
        }
    }

    /// Draws a frame whose indices another thread decoded (`GIFFrameIndices`) into `canvas`,
    /// exactly as `draw(_:header:…)` draws it from the file: the same rows, and where the data
    /// broke off, the same error or the same rows kept.
    static func draw(
        _ indices: GIFFrameIndices, header: GIFFile.ImageHeader, palette: [UInt32], transparentIndex: Int?,
        into canvas: inout Bitmap, strict: Bool
    ) throws(CodecError) -> Bool {
        try indices.withRows { row throws(CodecError) in
            try draw(header: header, palette: palette, transparentIndex: transparentIndex, into: &canvas, strict: strict, nextRow: row)
        }
    }

    /// The drawing both sources share. `nextRow(n)` gives the `n`th row in stored order (the
    /// interlaced order for an interlaced frame), `header.rect.width` indices, or throws where
    /// the data broke off.
    private static func draw(
        header: GIFFile.ImageHeader, palette: [UInt32], transparentIndex: Int?, into canvas: inout Bitmap, strict: Bool,
        nextRow: (Int) throws(CodecError) -> UnsafePointer<UInt8>
    ) throws(CodecError) -> Bool {
        let frame = header.rect
        let canvasWidth = canvas.width
        let canvasHeight = canvas.height
        let stride = canvas.bytesPerRow
        // Columns of the frame that land on the canvas.
        let firstColumn = max(0, -frame.x)
        let lastColumn = min(frame.width, canvasWidth - frame.x)
        // An index no byte can hold when there is no transparent colour: every pixel is drawn.
        let skipped = transparentIndex ?? 256

        let rowOrder: [(Int, Int)] = header.interlaced ? interlacePasses : [(0, 1)]
        var decodedRows = 0
        let result: Result<Bool, CodecError> = canvas.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return .success(true) }
            return palette.withUnsafeBufferPointer { table in
                for (start, step) in rowOrder {
                    var y = start
                    while y < frame.height {
                        let line: UnsafePointer<UInt8>
                        do throws(CodecError) {
                            line = try nextRow(decodedRows)
                        } catch {
                            return strict || decodedRows == 0 ? .failure(error) : .success(false)
                        }
                        decodedRows += 1
                        let canvasY = frame.y + y
                        if canvasY >= 0, canvasY < canvasHeight, firstColumn < lastColumn {
                            let row = UnsafeMutableRawPointer(base + canvasY * stride + (frame.x + firstColumn) * 4)
                            var offset = 0
                            for x in firstColumn..<lastColumn {
                                let index = Int(line[x])
                                if index != skipped {
                                    row.storeBytes(of: table[index], toByteOffset: offset, as: UInt32.self)
                                }
                                offset += 4
                            }
                        }
                        y += step
                    }
                }
                return .success(true)
            }
        }
        return try result.get()
    }

    /// Four bytes R, G, B, A as one word in memory order (little- or big-endian host alike).
    private static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        var word: UInt32 = 0
        withUnsafeMutableBytes(of: &word) { bytes in
            bytes[0] = r
            bytes[1] = g
            bytes[2] = b
            bytes[3] = a
        }
        return word
    }
}
