import CDeflate

/// Lays out a PNG file: the signature, then chunks (length, type, data, CRC-32 of type and data).
struct PNGFileWriter {
    private(set) var bytes: [UInt8]

    /// IDAT chunks are cut at this size. Any size up to 2³¹ − 1 is valid; smaller chunks let
    /// streaming readers start sooner, and the 12 bytes each costs are nothing at this size.
    static let imageDataChunkLength = 256 * 1024

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    }

    /// IHDR: 8 bits per channel, `colorType` 2 (RGB) or 6 (RGBA), no interlacing.
    mutating func writeHeader(width: Int, height: Int, colorType: UInt8) {
        var data: [UInt8] = []
        data.reserveCapacity(13)
        Self.appendBigEndian(UInt32(width), to: &data)
        Self.appendBigEndian(UInt32(height), to: &data)
        data += [8, colorType, 0, 0, 0]
        data.withUnsafeBytes { writeChunk("IHDR", $0) }
    }

    /// The zlib stream, in IDAT chunks of at most `imageDataChunkLength` bytes.
    mutating func writeImageData(_ stream: UnsafeRawBufferPointer) {
        var offset = 0
        repeat {
            let length = min(Self.imageDataChunkLength, stream.count - offset)
            writeChunk("IDAT", UnsafeRawBufferPointer(rebasing: stream[offset..<(offset + length)]))
            offset += length
        } while offset < stream.count
    }

    mutating func writeEnd() {
        writeChunk("IEND", UnsafeRawBufferPointer(start: nil, count: 0))
    }

    mutating func writeChunk(_ type: StaticString, _ data: UnsafeRawBufferPointer) {
        Self.appendBigEndian(UInt32(data.count), to: &bytes)
        let typeStart = bytes.count
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: type.utf8Start, count: 4))
        bytes.append(contentsOf: data)
        let crc = bytes.withUnsafeBytes { all in
            libdeflate_crc32(0, all.baseAddress! + typeStart, all.count - typeStart)
        }
        Self.appendBigEndian(crc, to: &bytes)
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
