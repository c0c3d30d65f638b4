import CTurboJPEG
import DarkroomChains
import DarkroomCore

/// Encodes JPEG through TurboJPEG: quality 1…100, optional progressive scans, 4:2:0 chroma
/// subsampling (the default of libvips, Pillow and cjpeg at these qualities), accurate DCT.
///
/// By default no metadata is written: no EXIF (the pixels are already upright), no ICC profile
/// (they are sRGB, which viewers assume for an untagged JPEG). `EncodeOptions.embedded` (a job's
/// `keep`) adds EXIF, XMP and ICC segments (`JPEGMetadataSegments`).
///
/// An opaque bitmap is compressed straight from its RGBA storage (TurboJPEG ignores the fourth
/// byte). A bitmap with transparency is flattened onto `options.background` first, because
/// JPEG has no alpha; the background's own alpha is ignored (it is treated as opaque).
public struct JPEGEncoder: ImageEncoding {
    public init() {}

    public var format: ImageFormat { .jpeg }

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        let jpeg = try encodePixels(bitmap, options: options)
        guard let embedded = options.embedded, !embedded.isEmpty else { return jpeg }
        return JPEGMetadataSegments.embed(embedded, into: jpeg)
    }

    private func encodePixels(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(options.quality) else {
            throw CodecError(.encodeFailed, source: "output", "JPEG quality must be 1…100 (got \(options.quality))")
        }
        guard let handle = TurboJPEGHandle.compressor() else {
            throw CodecError(.encodeFailed, source: "output", "could not start the JPEG encoder (out of memory)")
        }
        var flags = TJFLAG_ACCURATEDCT
        if options.progressive { flags |= TJFLAG_PROGRESSIVE }
        if bitmap.isOpaque {
            // `Bitmap.withUnsafeBytes` rethrows untyped errors, so the typed result travels in a Result.
            let result = bitmap.withUnsafeBytes { pixels in
                Result { () throws(CodecError) -> [UInt8] in
                    try compress(
                        handle, pixels.baseAddress, width: bitmap.width, height: bitmap.height,
                        bytesPerRow: bitmap.bytesPerRow, pixelFormat: TJPF_RGBX, quality: options.quality, flags: Int32(flags))
                }
            }
            return try result.get()
        }
        let flattened = Self.flatten(bitmap, onto: options.background)
        return try flattened.withUnsafeBufferPointer { (pixels) throws(CodecError) -> [UInt8] in
            try compress(
                handle, pixels.baseAddress, width: bitmap.width, height: bitmap.height,
                bytesPerRow: bitmap.width * 3, pixelFormat: TJPF_RGB, quality: options.quality, flags: Int32(flags))
        }
    }

    private func compress(
        _ handle: borrowing TurboJPEGHandle, _ pixels: UnsafePointer<UInt8>?, width: Int, height: Int,
        bytesPerRow: Int, pixelFormat: TJPF, quality: Int, flags: Int32
    ) throws(CodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = tjCompress2(
            handle.raw, pixels, Int32(width), Int32(bytesPerRow), Int32(height), pixelFormat.rawValue,
            &output, &outputSize, Int32(TJSAMP_420.rawValue), Int32(quality), flags)
        guard status == 0, let output else {
            throw CodecError(.encodeFailed, source: "output", "JPEG encoding failed (TurboJPEG: \(handle.errorMessage))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// Premultiplied RGBA composited over an opaque `background`, as packed RGB:
    /// `out = c + background × (255 − a) / 255`.
    static func flatten(_ bitmap: Bitmap, onto background: RGBAColor) -> [UInt8] {
        let width = bitmap.width
        let height = bitmap.height
        let stride = bitmap.bytesPerRow
        let count = width * height * 3
        PixelMemory.reportAllocation(bytes: count)
        let bgR = UInt32(background.red)
        let bgG = UInt32(background.green)
        let bgB = UInt32(background.blue)
        return bitmap.withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                guard let src = source.baseAddress, let dst = buffer.baseAddress else {
                    initialized = 0
                    return
                }
                for y in 0..<height {
                    var s = src + y * stride
                    var d = dst + y * width * 3
                    for _ in 0..<width {
                        let inverse = 255 &- UInt32(s[3])
                        d[0] = UInt8(truncatingIfNeeded: min(255, UInt32(s[0]) &+ scale(bgR, inverse)))
                        d[1] = UInt8(truncatingIfNeeded: min(255, UInt32(s[1]) &+ scale(bgG, inverse)))
                        d[2] = UInt8(truncatingIfNeeded: min(255, UInt32(s[2]) &+ scale(bgB, inverse)))
                        s += 4
                        d += 3
                    }
                }
                initialized = count
            }
        }
    }

    /// `v × a / 255`, rounded, without a division.
    @inline(__always)
    private static func scale(_ v: UInt32, _ a: UInt32) -> UInt32 {
        let t = v &* a &+ 128
        return (t &+ (t >> 8)) >> 8
    }
}
