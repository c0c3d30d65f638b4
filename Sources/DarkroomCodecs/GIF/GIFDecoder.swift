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
///   pixel memory is allocated. Then the file, rewound to its first record (its header is read
///   once), is read again up to the end of its first frame. Both passes are a `GIFRecordWalk`.
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
            try Self.survey(Self.open(buffer, limits: limits, source: image.sourceName), limits: limits)
        }
    }

    public func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        try PinnedBytes.with(image.bytes) { buffer throws(CodecError) in
            // First pass: screen, frame sizes and frame count against the limits, skipping all
            // compressed data, so a refused file allocates nothing. Second pass, over the same
            // open file rewound to its first record: the first frame.
            let file = try Self.open(buffer, limits: options.limits, source: image.sourceName)
            let surveyed = try Self.survey(file, limits: options.limits)
            file.rewind()
            return try Self.decodeFirstFrame(file, frameCount: surveyed.frameCount, options: options)
        }
    }

    /// Walks the whole stream without decompressing anything: checks the first frame's size and
    /// colour table, and the frame count, against `limits`.
    private static func survey(_ file: borrowing GIFFile, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        var first = GIFFirstFrame(limits: limits)
        var walk = GIFRecordWalk(limits: limits)
        try walk.run(file, observer: &first)
        guard first.hasColorTable else { throw missingColorTable(file.source) }
        return first.info(screen: file.screenSize, frameCount: walk.frameCount)
    }

    /// Decodes the first frame of `file`, at its first record, whose `frameCount` frames an
    /// earlier walk counted and checked.
    static func decodeFirstFrame(_ file: borrowing GIFFile, frameCount: Int, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var first = GIFFirstFrame(limits: options.limits, drawing: options.bitmapLimits)
        var walk = GIFRecordWalk(limits: options.limits)
        try walk.run(file, observer: &first)
        guard first.hasColorTable else { throw missingColorTable(file.source) }
        let screen = file.screenSize
        let info = first.info(screen: screen, frameCount: frameCount)
        guard var bitmap = first.canvas else {
            // Lenient mode lets the walk end quietly; a first frame with no row is still an error.
            if let failure = first.drawFailure { throw failure }
            // The first frame is empty (0×0): the screen stays transparent.
            let empty = try CodecBitmap.transparent(width: screen.width, height: screen.height, limits: options.bitmapLimits, source: file.source)
            return DecodedImage(bitmap: empty, info: info)
        }
        bitmap.isOpaque = first.complete && first.coversScreen && bitmap.scanIsOpaque()
        return DecodedImage(bitmap: bitmap, info: info)
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
