import CGif
import DarkroomCore

/// One GIF frame's colour indices, decoded from the file by a thread of its own so that frames
/// can be decoded ahead of the compositing, on the idle cores (`GIFAnimationSession`).
///
/// A frame's LZW stream depends on nothing before it: giflib sets its decompressor up afresh
/// from each image descriptor. A giflib handle is not thread-safe, so each decode opens its own
/// handle over the same bytes, seeks to the frame's descriptor and decodes it with the same
/// calls (`DGifGetImageHeader`, then `DGifGetLine` row by row) the in-order path makes. Where
/// the data breaks off, it therefore stops at the same row with the same error, which
/// `GIFFrameDrawing` turns into the same result (an error, or the rows kept) as drawing straight
/// from the file would.
struct GIFFrameIndices: Sendable {
    /// Indices per row.
    let width: Int
    /// The rows in stored order (GIF's four-pass order for an interlaced frame), `width`
    /// indices each; only the first `rowsDecoded` are meaningful.
    let pixels: [UInt8]
    let rowsDecoded: Int
    /// Why decoding stopped before the frame's last row; nil when every row was decoded.
    let failure: CodecError?
    let source: String

    /// Decodes the frame whose descriptor starts at `descriptorOffset` of `bytes` (which must
    /// stay alive and unchanged until this returns). `height` rows of `width` are expected, as
    /// the descriptor the caller read says; the caller checked that size against the limits.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, descriptorOffset: Int, width: Int, height: Int, source: String
    ) -> GIFFrameIndices {
        var pixels = [UInt8](repeating: 0, count: width * height)
        var rowsDecoded = 0
        var failure: CodecError?
        do throws(CodecError) {
            let file = try GIFFile(bytes: bytes, source: source)
            file.seek(to: descriptorOffset)
            guard try file.nextRecord() == .image else {
                throw CodecError(.corrupt, source: source, "corrupt GIF: a frame's descriptor moved while it was decoded")
            }
            let header = try file.readImageHeader()
            guard header.rect.width == width, header.rect.height == height else {
                throw CodecError(.corrupt, source: source, "corrupt GIF: a frame's descriptor moved while it was decoded")
            }
            try pixels.withUnsafeMutableBufferPointer { buffer throws(CodecError) in
                guard let base = buffer.baseAddress else { return }
                while rowsDecoded < height {
                    try file.readLine(into: base + rowsDecoded * width, count: width)
                    rowsDecoded += 1
                }
            }
        } catch {
            failure = error
        }
        return GIFFrameIndices(width: width, pixels: pixels, rowsDecoded: rowsDecoded, failure: failure, source: source)
    }

    /// Calls `body` with a function giving row `n` in stored order, or throwing the error that
    /// stopped the decode before that row.
    func withRows<R>(_ body: ((Int) throws(CodecError) -> UnsafePointer<UInt8>) throws(CodecError) -> R) throws(CodecError) -> R {
        try pixels.withUnsafeBufferPointer { buffer throws(CodecError) in
            try body { row throws(CodecError) in
                guard row < rowsDecoded, let base = buffer.baseAddress else {
                    throw failure ?? CodecError(.corrupt, source: source, "corrupt GIF: a frame has fewer rows than its descriptor says")
                }
                return base + row * width
            }
        }
    }
}
