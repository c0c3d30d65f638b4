import CDeflate
import DarkroomCore

/// Encodes a bitmap as an 8-bit PNG: RGB when every pixel is opaque (a quarter smaller before
/// compression), RGBA with straight alpha otherwise. No ancillary chunks are written (no gAMA,
/// no sRGB, no text, no time): output is plain sRGB, metadata stripped — unless
/// `EncodeOptions.embedded` asks for iCCP, eXIf or XMP chunks (`PNGFileWriter.writeMetadata`).
///
/// Darkroom writes the file itself and compresses with libdeflate rather than zlib (libspng's
/// encoder). The work is in three steps:
/// 1. `PNGFilterStrategy` picks unfiltered or adaptively filtered rows from a sample.
/// 2. Every row is converted and filtered into one buffer, in bands on idle cores (`RowBands`).
/// 3. libdeflate compresses that buffer in one call.
///
/// On a 4000×3000 photograph libdeflate's level 6 takes a third of zlib's level-6 time for a
/// file 1.5 % smaller; docs/benchmarks.md has the measurements. The price is memory: the filtered
/// rows are held whole (3 or 4 bytes per pixel) instead of one row at a time.
public struct PNGEncoder: ImageEncoding {
    /// libdeflate level, 1 (fast) … 12 (small). See `defaultCompressionLevel`.
    public var compressionLevel: Int

    public init(compressionLevel: Int = PNGEncoder.defaultCompressionLevel) {
        self.compressionLevel = compressionLevel
    }

    /// Measured on a 4000×3000 photo: level 6 writes 12.22 MB in 1.2 s, level 7 12.06 MB (what
    /// Pillow writes in 6 s) in 2.3 s, level 8 11.86 MB in 6 s. 6 keeps large outputs at
    /// libvips' speed.
    public static let defaultCompressionLevel = 6

    public var format: ImageFormat { .png }

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8] {
        // A false flag does not promise transparency; one scan buys a 25 % smaller raw stream.
        let source = PNGScanlineSource(bitmap: bitmap, opaque: bitmap.isOpaque || bitmap.scanIsOpaque())
        let lineLength = source.rowLength + 1
        let (filteredLength, overflow) = lineLength.multipliedReportingOverflow(by: bitmap.height)
        guard !overflow, bitmap.width > 0, bitmap.height > 0, bitmap.width <= Int(Int32.max),
            bitmap.height <= Int(Int32.max)
        else {
            throw Self.failure("PNG cannot store \(bitmap.width)x\(bitmap.height)")
        }
        PixelMemory.reportAllocation(bytes: filteredLength)
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredLength)
        defer { filtered.deallocate() }
        bitmap.withUnsafeBytes { pixels in
            guard let base = pixels.baseAddress else { return }
            let strategy = PNGFilterStrategy.choose(for: source, pixels: base)
            RowBands.forEachNonThrowing(rows: bitmap.height, width: bitmap.width) { rows in
                source.filterRows(rows, of: base, strategy: strategy, into: filtered + rows.lowerBound * lineLength)
            }
        }
        let compressed = try Self.deflate(filtered, length: filteredLength, level: compressionLevel)
        defer { compressed.buffer.deallocate() }

        var file = PNGFileWriter(capacity: compressed.length + 128)
        file.writeHeader(width: bitmap.width, height: bitmap.height, colorType: source.opaque ? 2 : 6)
        if let embedded = options.embedded { try file.writeMetadata(embedded) }
        file.writeImageData(UnsafeRawBufferPointer(start: compressed.buffer, count: compressed.length))
        file.writeEnd()
        return file.bytes
    }

    /// The zlib stream of `length` bytes at `input`, in a buffer the caller deallocates.
    static func deflate(
        _ input: UnsafePointer<UInt8>, length: Int, level: Int
    ) throws(CodecError) -> (buffer: UnsafeMutableRawPointer, length: Int) {
        guard let compressor = libdeflate_alloc_compressor(Int32(min(12, max(1, level)))) else {
            throw failure("could not create a DEFLATE compressor (out of memory)")
        }
        defer { libdeflate_free_compressor(compressor) }
        // The bound is a little over the input, but only the pages written become resident.
        let capacity = libdeflate_zlib_compress_bound(compressor, length)
        let output = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        let written = libdeflate_zlib_compress(compressor, input, length, output, capacity)
        guard written > 0 else {
            output.deallocate()
            throw failure("libdeflate could not compress the image data")
        }
        return (output, written)
    }

    static func failure(_ message: String) -> CodecError {
        CodecError(.encodeFailed, source: "output", message)
    }
}
