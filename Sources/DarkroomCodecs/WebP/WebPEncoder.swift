import CWebP
import DarkroomCore

/// Encodes a bitmap as WebP with libwebp: lossy at `EncodeOptions.quality`, or lossless when
/// `EncodeOptions.lossless` is set. Alpha is kept (straight alpha, unpremultiplied with rounding
/// first); an opaque bitmap is imported as RGBX so no alpha plane is written. No metadata chunks
/// unless `EncodeOptions.embedded` asks for them (`WebPMetadataMux`).
public struct WebPEncoder: ImageEncoding {
    /// libwebp's speed/size trade-off, 0 (fast) … 6 (small). 4 is cwebp's default; see the
    /// codecs report in the README for the measurement behind it.
    public var method: Int
    /// Lossless effort (libwebp's `quality` in lossless mode), 0 … 100. The user's quality does
    /// not apply to lossless output.
    public var losslessEffort: Int

    public init(method: Int = WebPEncoder.defaultMethod, losslessEffort: Int = 75) {
        self.method = method
        self.losslessEffort = losslessEffort
    }

    public static let defaultMethod = 4

    public var format: ImageFormat { .webp }

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        let webp = try encode(bitmap, rect: PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height), options: options)
        guard let embedded = options.embedded else { return webp }
        return try WebPMetadataMux.embed(embedded, into: webp)
    }

    /// Encodes the pixels of `rect` (inside `bitmap`) as a still WebP; `frameNumber` names the
    /// frame of an animation in errors. `threaded` (by default: when cores are idle, see
    /// `usesIdleCores`) lets libwebp encode the alpha plane and split its analysis on a second
    /// thread; the bytes are the same either way.
    func encode(
        _ bitmap: Bitmap, rect: PixelRect, options: EncodeOptions, frameNumber: Int? = nil, threaded: Bool? = nil
    ) throws(CodecError) -> [UInt8] {
        guard rect.width <= Int(WEBP_MAX_DIMENSION), rect.height <= Int(WEBP_MAX_DIMENSION) else {
            throw Self.failure("WebP cannot store \(rect.width)x\(rect.height): each side must be at most \(WEBP_MAX_DIMENSION) px")
        }
        // libwebp keeps pointers to these between calls, so they live on the heap, not in Swift
        // locals (whose address is only guaranteed for the duration of one call).
        let config = UnsafeMutablePointer<WebPConfig>.allocate(capacity: 1)
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        config.initialize(to: WebPConfig())
        picture.initialize(to: WebPPicture())
        writer.initialize(to: WebPMemoryWriter())
        defer {
            config.deallocate()
            picture.deallocate()
            writer.deallocate()
        }

        guard darkroom_webp_picture_init(picture) != 0 else { throw Self.versionMismatch }
        try configure(config, options: options)
        if threaded ?? Self.usesIdleCores(rect: rect, frameNumber: frameNumber) {
            config.pointee.thread_level = 1
        }

        picture.pointee.width = Int32(rect.width)
        picture.pointee.height = Int32(rect.height)
        // Lossless works on ARGB; lossy converts straight to YUV on import.
        picture.pointee.use_argb = options.lossless ? 1 : 0
        defer { WebPPictureFree(picture) }
        try Self.importPixels(of: bitmap, rect: rect, into: picture)

        WebPMemoryWriterInit(writer)
        defer { WebPMemoryWriterClear(writer) }
        picture.pointee.writer = WebPMemoryWrite
        picture.pointee.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(config, picture) != 0 else {
            let what = frameNumber.map { "frame \($0)" } ?? "the image"
            throw Self.failure("libwebp could not encode \(what) (error \(picture.pointee.error_code.rawValue))")
        }
        guard let output = writer.pointee.mem else { throw Self.failure("libwebp produced no output") }
        return Array(UnsafeBufferPointer(start: output, count: writer.pointee.size))
    }

    /// Fills `config` for `options`: lossy at the quality, or lossless at `losslessEffort`,
    /// with this encoder's method. Shared with `AnimatedWebPEncoder`, whose frames use it.
    func configure(_ config: UnsafeMutablePointer<WebPConfig>, options: EncodeOptions) throws(CodecError) {
        let quality = Float(min(100, max(1, options.quality)))
        guard darkroom_webp_config_init(config, quality) != 0 else { throw Self.versionMismatch }
        config.pointee.method = Int32(min(6, max(0, method)))
        if options.lossless {
            config.pointee.lossless = 1
            config.pointee.quality = Float(min(100, max(0, losslessEffort)))
        }
        guard WebPValidateConfig(config) != 0 else { throw Self.failure("invalid WebP encoder settings") }
    }

    /// True when a still image's encode may use a second thread: when a kernel over it would
    /// split now (`RowBands.threadBudget`), i.e. when other cores are idle — the last large image
    /// of a batch. A batch with an image per core keeps one thread per image, and animation
    /// frames (encoded while other frames are processed) never thread. libwebp's extra thread is a
    /// pthread of its own, outside the blocking pool's count; it exists only while cores are idle.
    static func usesIdleCores(rect: PixelRect, frameNumber: Int?) -> Bool {
        frameNumber == nil && RowBands.threadBudget(rows: rect.height, width: rect.width) > 1
    }

    static var versionMismatch: CodecError {
        failure("the installed libwebp does not match the headers Darkroom was built with")
    }

    /// Copies the pixels of `rect` into libwebp's picture: RGBX straight from the bitmap when
    /// opaque, or through one unpremultiplied copy when not.
    static func importPixels(of bitmap: Bitmap, rect: PixelRect, into picture: UnsafeMutablePointer<WebPPicture>) throws(CodecError) {
        // Only the rectangle is encoded, so only its pixels decide (an animation frame's changed
        // part is often a small piece of a large canvas).
        let opaque = bitmap.isOpaque || bitmap.scanIsOpaque(in: rect)
        let imported: Int32 = bitmap.withUnsafeBytes { pixels in
            guard let base = pixels.baseAddress else { return 0 }
            let origin = base + rect.y * bitmap.bytesPerRow + rect.x * 4
            if opaque {
                return WebPPictureImportRGBX(picture, origin, Int32(bitmap.bytesPerRow))
            }
            let rowBytes = rect.width * 4
            PixelMemory.reportAllocation(bytes: rowBytes * rect.height)
            let straight = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * rect.height)
            defer { straight.deallocate() }
            RowBands.forEachNonThrowing(rows: rect.height, width: rect.width) { band in
                for y in band {
                    AlphaKernels.unpremultiply(origin + y * bitmap.bytesPerRow, to: straight + y * rowBytes, pixelCount: rect.width)
                }
            }
            return WebPPictureImportRGBA(picture, straight, Int32(rowBytes))
        }
        guard imported != 0 else { throw failure("libwebp could not take the pixels (out of memory)") }
    }

    static func failure(_ message: String) -> CodecError {
        CodecError(.encodeFailed, source: "output", message)
    }
}
