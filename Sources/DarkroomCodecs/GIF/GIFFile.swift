import CGif
import DarkroomChains
import DarkroomCore

/// One giflib decoding session over bytes in memory, walked record by record with giflib's
/// low-level API. `DGifSlurp` is never used: it would decode and keep every frame of an
/// untrusted file in memory.
///
/// Must be created and dropped inside the `withUnsafeBytes` scope of the bytes it reads (see
/// `GIFMemoryReader`). Non-copyable, so the giflib handle is closed exactly once.
struct GIFFile: ~Copyable {
    private let gif: UnsafeMutablePointer<GifFileType>
    /// Kept here so it lives exactly as long as the giflib handle that points to it.
    private let reader: GIFMemoryReader
    let source: String
    /// Where the records start: after the header and the global colour table.
    private let firstRecordOffset: Int

    /// One record of the stream.
    enum Record {
        case image
        case extensionBlock
        /// The trailer.
        case trailer
        /// The data ends at a record boundary without a trailer (common in the wild).
        case endOfData
    }

    /// A frame's descriptor.
    struct ImageHeader {
        var rect: PixelRect
        var interlaced: Bool
        /// The local colour table, or nil to use the global one.
        var localColors: [GifColorType]?
    }

    /// Opens the stream and reads the logical screen descriptor and global colour table.
    init(bytes: UnsafeRawBufferPointer, source: String) throws(CodecError) {
        try self.init(reader: GIFMemoryReader(bytes: bytes), source: source)
    }

    /// Opens a stream over bytes this session keeps alive itself (for readers spanning calls).
    init(owned: OwnedBytes, source: String) throws(CodecError) {
        try self.init(reader: GIFMemoryReader(owned: owned), source: source)
    }

    private init(reader: GIFMemoryReader, source: String) throws(CodecError) {
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), GIFMemoryReader.inputFunction, &status) else {
            throw Self.error(code: status, ranOut: reader.ranOut, source: source, while: "reading the header")
        }
        self.gif = gif
        self.reader = reader
        self.source = source
        firstRecordOffset = reader.offset
    }

    /// Goes back to the first record after the header, so a second walk over the frames does not
    /// open the file (and read its header) again. giflib keeps no state between records: each
    /// frame's descriptor sets its decompressor up afresh.
    func rewind() {
        reader.rewind(to: firstRecordOffset)
    }

    /// How many bytes of the file have been read: before `nextRecord()`, where the next record
    /// starts. giflib reads exactly what each call needs and buffers nothing between records.
    var position: Int { reader.offset }

    /// Moves to `offset`, one `position` gave at a record's start (possibly in another session
    /// over the same bytes), so the next call is `nextRecord()`. A thread decoding a frame ahead
    /// opens its own session and seeks to the frame's descriptor this way.
    func seek(to offset: Int) {
        reader.rewind(to: offset)
    }

    deinit {
        var status: Int32 = 0
        DGifCloseFile(gif, &status)
    }

    /// The logical screen: the canvas every frame is drawn on.
    var screenSize: PixelSize { PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight)) }

    /// The global colour table, if any.
    var globalColors: [GifColorType]? { Self.colors(gif.pointee.SColorMap) }

    /// The type of the next record.
    func nextRecord() throws(CodecError) -> Record {
        if reader.isAtEnd { return .endOfData }
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK else { throw failure("reading the next block") }
        switch type {
        case IMAGE_DESC_RECORD_TYPE: return .image
        case EXTENSION_RECORD_TYPE: return .extensionBlock
        case TERMINATE_RECORD_TYPE: return .trailer
        default: throw CodecError(.corrupt, source: source, "corrupt GIF: unknown block type")
        }
    }

    /// Reads an image descriptor (and its local colour table) after `.image`. Unlike
    /// `DGifGetImageDesc`, `DGifGetImageHeader` does not append to giflib's saved-image list,
    /// so counting 20,000 frames costs no memory.
    func readImageHeader() throws(CodecError) -> ImageHeader {
        guard DGifGetImageHeader(gif) == GIF_OK else { throw failure("reading a frame header") }
        let image = gif.pointee.Image
        return ImageHeader(
            rect: PixelRect(x: Int(image.Left), y: Int(image.Top), width: Int(image.Width), height: Int(image.Height)),
            interlaced: image.Interlace,
            localColors: Self.colors(image.ColorMap))
    }

    /// Decodes the next row of the current frame's LZW data into `line` (`count` indices).
    func readLine(into line: UnsafeMutablePointer<UInt8>, count: Int) throws(CodecError) {
        guard DGifGetLine(gif, line, Int32(count)) == GIF_OK else { throw failure("decoding frame pixels") }
    }

    /// Skips the current frame's compressed data without decompressing it.
    func skipImageData() throws(CodecError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { throw failure("skipping frame data") }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw failure("skipping frame data") }
        }
    }

    /// Reads an extension after `.extensionBlock`: a Graphics Control Extension's fields, the
    /// NETSCAPE2.0 (or ANIMEXTS1.0) loop count, and nothing of any other extension.
    func readExtension() throws(CodecError) -> GIFExtension {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure("reading an extension") }
        var result = GIFExtension()
        // giflib hands out sub-blocks with their length in the first byte.
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            result.graphicsControl = GIFGraphicsControl(
                packed: block[1], delayLow: block[2], delayHigh: block[3], transparentIndex: block[4])
        }
        let isLooping = code == APPLICATION_EXT_FUNC_CODE && block.map(Self.isLoopingApplication) == true
        var isFirstSubBlock = true
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure("reading an extension") }
            // The looping extension's first data sub-block is [3, 1, count low, count high].
            if isLooping, isFirstSubBlock, let sub = block, sub[0] >= 3, sub[1] == 1 {
                result.netscapeLoopCount = Int(sub[2]) | Int(sub[3]) << 8
            }
            isFirstSubBlock = false
        }
        return result
    }

    /// Whether an application extension's identifier block names the looping extension.
    private static func isLoopingApplication(_ block: UnsafeMutablePointer<GifByteType>) -> Bool {
        guard block[0] == 11 else { return false }
        let identifier = (1...11).map { block[$0] }
        return identifier == Array("NETSCAPE2.0".utf8) || identifier == Array("ANIMEXTS1.0".utf8)
    }

    private func failure(_ stage: String) -> CodecError {
        Self.error(code: gif.pointee.Error, ranOut: reader.ranOut, source: source, while: stage)
    }

    static func error(code: Int32, ranOut: Bool, source: String, while stage: String) -> CodecError {
        if ranOut || code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON {
            return CodecError(.truncated, source: source, "truncated GIF data while \(stage)")
        }
        if code == D_GIF_ERR_NOT_ENOUGH_MEM {
            return CodecError(.tooLarge, source: source, "GIF decoder ran out of memory while \(stage)")
        }
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return CodecError(.corrupt, source: source, "corrupt GIF while \(stage) (\(reason))")
    }

    /// Refuses the file once a walk has counted more frames than `limits.maxFrames`: every
    /// `GIFRecordWalk` stops at the frame after the limit.
    func checkFrameCount(_ count: Int, limits: DecodeLimits) throws(CodecError) {
        guard count > limits.maxFrames else { return }
        throw CodecError(.tooManyFrames, source: source, "GIF has more than \(limits.maxFrames) frames, over the frame limit (a fixed limit)")
    }

    private static func colors(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [GifColorType]? {
        guard let map, let colors = map.pointee.Colors, map.pointee.ColorCount > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: colors, count: min(256, Int(map.pointee.ColorCount))))
    }
}
