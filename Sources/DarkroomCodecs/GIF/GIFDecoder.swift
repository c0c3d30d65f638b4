import CGif
import DarkroomChains
import DarkroomCore

/// Decodes the first frame of a GIF (giflib) onto a canvas of the logical screen's size and
/// counts the frames, without decompressing any frame but the first.
///
/// - The screen size is checked against `DecodeLimits` straight after the header, and the
///   first frame's own size before it is decoded, so a 65535×65535 screen costs nothing.
/// - Frames are counted first, by skipping their compressed data; more than `limits.maxFrames`
///   is `.tooManyFrames`, found as soon as the frame after the limit is reached and before any
///   pixel memory is allocated. Then the file is read again up to the end of its first frame.
/// - The canvas starts transparent (browsers ignore the background colour); the frame is placed
///   at its offset and clipped to the screen; the Graphics Control Extension before it gives the
///   transparent index; a frame with neither a local nor a global colour table is `.corrupt`.
/// - Strict: data ending inside a frame or a damaged LZW stream is an error. Lenient: the rows
///   decoded so far are kept and counting stops there. A missing trailer after the last complete
///   frame is accepted in both modes (many encoders omit it).
public struct GIFDecoder: ImageDecoding {
    public init() {}

    public var format: ImageFormat { .gif }

    public func canDecode(_ bytes: [UInt8]) -> Bool {
        ImageFormat.sniff(bytes) == .gif
    }

    public func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            try Self.survey(buffer, limits: limits, source: image.sourceName)
        }
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let limits = options.limits
        let source = image.sourceName
        return try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            // First pass: screen, frame sizes and frame count against the limits, skipping all
            // compressed data, so a refused file allocates nothing. Second pass: the first frame.
            let info = try Self.survey(buffer, limits: limits, source: source)
            let file = try Self.open(buffer, limits: limits, source: source)
            let screen = file.screenSize
            var canvas: Bitmap?
            var complete = true
            var drawFailure: CodecError?
            var walk = Walk(limits: limits)
            try walk.run(file, stopAfterFirstFrame: true) { (file: borrowing GIFFile, header, transparentIndex) throws(CodecError) in
                guard let colors = header.localColors ?? file.globalColors else { throw Self.missingColorTable(source) }
                var bitmap = try CodecBitmap.transparent(
                    width: screen.width, height: screen.height,
                    limits: options.bitmapLimits, source: source)
                let palette = GIFFrameDrawing.palette(colors, transparentIndex: transparentIndex)
                do throws(CodecError) {
                    complete = try GIFFrameDrawing.draw(
                        file, header: header, palette: palette, transparentIndex: transparentIndex,
                        into: &bitmap, strict: limits.strict)
                } catch {
                    drawFailure = error
                    throw error
                }
                canvas = bitmap
                return (covers: Self.covers(header.rect, screen), transparent: transparentIndex != nil)
            }
            guard var bitmap = canvas else {
                // Lenient mode lets the walk end quietly; a first frame with no row is still an error.
                if let drawFailure { throw drawFailure }
                // The first frame is empty (0×0): the screen stays transparent.
                let empty = try CodecBitmap.transparent(
                    width: screen.width, height: screen.height,
                    limits: options.bitmapLimits, source: source)
                return DecodedImage(bitmap: empty, info: info)
            }
            bitmap.isOpaque = complete && walk.firstFrameCoversScreen && bitmap.scanIsOpaque()
            return DecodedImage(bitmap: bitmap, info: info)
        }
    }

    /// Reads the whole stream without decompressing anything: checks the screen, the first
    /// frame's size and colour table, and the frame count against `limits`.
    private static func survey(_ buffer: UnsafeRawBufferPointer, limits: DecodeLimits, source: String) throws(CodecError) -> ImageInfo {
        let file = try open(buffer, limits: limits, source: source)
        var walk = Walk(limits: limits)
        try walk.run(file) { (file: borrowing GIFFile, header, transparentIndex) throws(CodecError) in
            try file.skipImageData()
            return (covers: Self.covers(header.rect, file.screenSize), transparent: transparentIndex != nil)
        }
        // Checked here, outside the walk, so lenient mode cannot mistake it for a damaged tail.
        guard walk.firstFrameHasColorTable else { throw missingColorTable(source) }
        return walk.info(screen: file.screenSize)
    }

    private static func missingColorTable(_ source: String) -> CodecError {
        CodecError(.corrupt, source: source, "corrupt GIF: the first frame has no colour table (local or global)")
    }

    /// Opens the stream and checks the logical screen against the limits.
    private static func open(_ buffer: UnsafeRawBufferPointer, limits: DecodeLimits, source: String) throws(CodecError) -> GIFFile {
        let file = try GIFFile(bytes: buffer, source: source)
        try limits.check(file.screenSize, source: source)
        return file
    }

    static func covers(_ rect: PixelRect, _ screen: PixelSize) -> Bool {
        rect.x <= 0 && rect.y <= 0 && rect.x + rect.width >= screen.width && rect.y + rect.height >= screen.height
    }
}
