import CGif
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
        let reader = GIFMemoryReader(bytes: bytes)
        var status: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(reader).toOpaque(), GIFMemoryReader.inputFunction, &status) else {
            throw Self.error(code: status, ranOut: reader.ranOut, source: source, while: "reading the header")
        }
        self.gif = gif
        self.reader = reader
        self.source = source
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

    /// Reads an extension after `.extensionBlock`. Returns the transparent colour index when it
    /// is a Graphics Control Extension that sets one (nil otherwise).
    func readExtension() throws(CodecError) -> (isGraphicsControl: Bool, transparentIndex: Int?) {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure("reading an extension") }
        var transparent: Int?
        let isGraphicsControl = code == GRAPHICS_EXT_FUNC_CODE
        // giflib hands out sub-blocks with their length in the first byte. A GCE's packed byte
        // has the transparency flag in bit 0 and the index in the fourth data byte.
        if isGraphicsControl, let block, block[0] >= 4, block[1] & 1 != 0 {
            transparent = Int(block[4])
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure("reading an extension") }
        }
        return (isGraphicsControl, transparent)
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

    private static func colors(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [GifColorType]? {
        guard let map, let colors = map.pointee.Colors, map.pointee.ColorCount > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: colors, count: min(256, Int(map.pointee.ColorCount))))
    }
}
