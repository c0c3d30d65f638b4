import CDarkroomPlugin
import DarkroomChains
import DarkroomCodecs
import DarkroomCore

/// A coder from a plugin's C descriptor.
///
/// `@unchecked Sendable` for the same reason as `ExternalProcessorEntry`: the descriptor and its
/// `user_data` never change and never go away, and the callbacks must be thread-safe (ABI rules).
struct ExternalCoderEntry: @unchecked Sendable {
    let format: ImageFormat
    let module: PluginModuleIdentity
    let userData: UnsafeMutableRawPointer?
    let sniff: (@convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer?) -> Int32)?
    let readInfo:
        (
            @convention(c) (
                UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<darkroom_image_info>?, UnsafeMutableRawPointer?,
                UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
        )?
    let decode:
        (
            @convention(c) (
                UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<darkroom_bitmap>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
        )?
    let encode:
        (
            @convention(c) (
                UnsafePointer<darkroom_bitmap>?, Int32, UnsafePointer<darkroom_byte_sink>?, UnsafeMutableRawPointer?,
                UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
        )?
    /// The extended decode (size hint, thread budget, ICC sink); nil for a coder compiled before it
    /// existed (its `struct_size` ends before the member) or one that leaves it NULL.
    let decodeEx:
        (
            @convention(c) (
                UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<darkroom_decode_request>?, UnsafeMutablePointer<darkroom_bitmap>?,
                UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
            ) -> darkroom_status
        )?

    var subject: String { "coder '\(format)' (\(module))" }
}

/// Reads a plugin's format. The host keeps the limits: the plugin reports the size and frame
/// count from the header, the host checks them against `DecodeLimits`, allocates the bitmap under
/// the image's `BitmapLimits`, and only then lets the plugin decode into it. A coder with
/// `decode_ex` also gets the shrink-on-load target and a thread budget, and hands back its ICC
/// profile, which the host applies (`ExternalDecoder+Extended.swift`).
///
/// A coder that only encodes still has a decoder here: it reads headers, so the cache can
/// describe a stored result in the plugin's format, and refuses to decode pixels.
struct ExternalDecoder: ImageDecoding {
    let entry: ExternalCoderEntry

    /// Whether the plugin decodes pixels (not only headers).
    var decodesPixels: Bool { entry.decode != nil || entry.decodeEx != nil }

    var format: ImageFormat { entry.format }

    func canDecode(_ bytes: [UInt8]) -> Bool {
        guard let sniff = entry.sniff else { return false }
        return bytes.withUnsafeBufferPointer { sniff($0.baseAddress, $0.count, entry.userData) != 0 }
    }

    func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo {
        guard let readInfo = entry.readInfo else {
            throw CodecError(.unsupported, source: image.sourceName, "\(entry.subject) cannot read headers")
        }
        // HEIC's boxes are checked by the host too, so a hostile file costs the module nothing.
        if format == .heic { try HEICHeaderLimits.check(image.bytes, limits: limits, source: image.sourceName) }
        var info = darkroom_image_info()
        var error = darkroom_error()
        let status = image.bytes.withUnsafeBufferPointer { readInfo($0.baseAddress, $0.count, &info, entry.userData, &error) }
        guard status == DARKROOM_OK else {
            throw CodecError(.corrupt, source: image.sourceName, PluginFailure.from(status: status, error: &error, subject: entry.subject).description)
        }
        let size = PixelSize(width: Int(info.width), height: Int(info.height))
        try limits.check(size, source: image.sourceName)
        let frames = max(1, Int(info.frame_count))
        guard frames <= limits.maxFrames else {
            throw CodecError(.tooManyFrames, source: image.sourceName, "declares \(frames) frames, over the \(limits.maxFrames) frame limit (a fixed limit)")
        }
        return ImageInfo(format: format, storedSize: size, frameCount: frames, hasAlpha: info.has_alpha != 0)
    }

    func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let info = try readInfo(image, limits: options.limits)
        if let decodeEx = entry.decodeEx { return try decodeExtended(image, info: info, options: options, decodeEx) }
        guard let decode = entry.decode else {
            throw CodecError(.unsupported, source: image.sourceName, "\(entry.subject) does not decode")
        }
        let width = info.storedSize.width
        let height = info.storedSize.height
        let bitmap = try StraightAlpha.bitmap(width: width, height: height, limits: options.bitmapLimits, source: image.sourceName) {
            bytes, bytesPerRow throws(CodecError) in
            // Zeroed first: a decoder that leaves pixels unwritten must not expose old heap contents.
            bytes.update(repeating: 0)
            var output = darkroom_bitmap(pixels: bytes.baseAddress, width: UInt32(width), height: UInt32(height), stride: bytesPerRow, is_opaque: 0)
            var error = darkroom_error()
            let status = image.bytes.withUnsafeBufferPointer { decode($0.baseAddress, $0.count, &output, entry.userData, &error) }
            guard status == DARKROOM_OK else {
                throw CodecError(.corrupt, source: image.sourceName, PluginFailure.from(status: status, error: &error, subject: entry.subject).description)
            }
        }
        return DecodedImage(bitmap: bitmap, info: info)
    }
}

/// Writes a plugin's format: the host hands the plugin straight RGBA and collects what it writes
/// through a sink capped at `maxOutputBytes`.
struct ExternalEncoder: ImageEncoding {
    let entry: ExternalCoderEntry
    /// The most bytes an encoded image may have; a plugin writing more fails its job.
    static let maxOutputBytes = 1 << 30

    var format: ImageFormat { entry.format }

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        guard let encode = entry.encode else { throw CodecError(.unsupported, source: "output", "\(entry.subject) does not encode") }
        var pixels = StraightAlpha.pixels(of: bitmap)
        let sink = HostByteSink(maxBytes: Self.maxOutputBytes, timeout: .infinity)
        var error = darkroom_error()
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            var input = darkroom_bitmap(
                pixels: buffer.baseAddress, width: UInt32(bitmap.width), height: UInt32(bitmap.height), stride: bitmap.width * 4,
                is_opaque: bitmap.isOpaque ? 1 : 0)
            return sink.withCSink { encode(&input, Int32(options.quality), $0, entry.userData, &error) }
        }
        switch sink.stopReason {
        case .tooLarge:
            throw CodecError(.encodeFailed, source: "output", "\(entry.subject) wrote more than \(Self.maxOutputBytes) bytes")
        case .invalidWrite:
            throw CodecError(.encodeFailed, source: "output", "\(entry.subject) wrote from a NULL pointer")
        case .timedOut, .stopped, nil:
            break
        }
        guard status == DARKROOM_OK else {
            throw CodecError(.encodeFailed, source: "output", PluginFailure.from(status: status, error: &error, subject: entry.subject).description)
        }
        return sink.bytes
    }
}
