/// Assembles PNG files chunk by chunk for hostile-input tests (CRCs computed here, so a test can
/// break exactly one thing at a time).
enum PWGPNGBuilder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk with its length and CRC (or `crc` when given, to make it wrong on purpose).
    static func chunk(_ type: String, _ body: [UInt8], crc: UInt32? = nil) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(body.count)) + typeBytes + body + bigEndian(crc ?? crc32(typeBytes + body))
    }

    /// An IHDR body.
    static func header(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2, interlaced: Bool = false) -> [UInt8] {
        bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
    }

    /// Signature + IHDR + the given IDAT data + IEND.
    static func png(width: UInt32, height: UInt32, colorType: UInt8 = 2, idat: [UInt8]) -> [UInt8] {
        signature + chunk("IHDR", header(width: width, height: height, colorType: colorType))
            + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// The start of a zlib stream (level 9) that inflates to nothing but zero bytes: each further
    /// zero byte appended to it adds about 1,032 zero bytes of output. With 870,000 zeros it
    /// inflates to 898 MB — the pixel data of a 30000×30000 all-black greyscale image.
    static let zeroBombPrefix: [UInt8] = [0x78, 0xDA, 0xEC, 0xC1, 0x01, 0x01, 0x00, 0x00, 0x00, 0x80, 0x90, 0xFE, 0xAF, 0xEE, 0x08, 0x0A]

    /// A 30000×30000 (900 MP) all-zero greyscale PNG of about 870 KB: a decompression bomb.
    static func decompressionBomb() -> [UInt8] {
        signature + chunk("IHDR", header(width: 30_000, height: 30_000, colorType: 0))
            + chunk("IDAT", zeroBombPrefix + [UInt8](repeating: 0, count: 870_000)) + chunk("IEND", [])
    }

    /// The chunks of a PNG as (offset of the length field, type, body length).
    static func chunks(_ bytes: [UInt8]) -> [(offset: Int, type: String, length: Int)] {
        var out: [(Int, String, Int)] = []
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            out.append((i, String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self), length))
            i += 12 + length
        }
        return out
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}
