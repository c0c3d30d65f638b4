/// Builds GIF files byte by byte for tests: exact control over screens, frames, offsets, colour
/// tables and transparency, including shapes no encoder would write (huge screens, 20,000 frames,
/// frames outside the screen, no colour table at all).
///
/// Pixel data is LZW-coded with a minimum code size of 8 and literal codes only, with a clear
/// code often enough that the code width stays 9 bits: valid for every decoder, trivially
/// correct, and compact enough for tiny frames.
struct PWGGIFBuilder {
    typealias Color = (r: UInt8, g: UInt8, b: UInt8)

    private(set) var bytes: [UInt8] = []

    /// Header and logical screen descriptor, with an optional global colour table.
    init(width: Int, height: Int, globalColors: [Color]? = nil) {
        bytes += Array("GIF89a".utf8)
        bytes += Self.word(width) + Self.word(height)
        if let globalColors {
            let bits = Self.tableBits(globalColors.count)
            bytes += [0x80 | 0x70 | UInt8(bits - 1), 0, 0]
            bytes += Self.table(globalColors, bits: bits)
        } else {
            bytes += [0x70, 0, 0]
        }
    }

    /// A Graphics Control Extension for the next frame: disposal method 0…7 in bits 2–4 of the
    /// packed byte, the delay in hundredths of a second.
    mutating func graphicsControl(transparentIndex: UInt8?, disposal: UInt8 = 0, delay: Int = 10) {
        let packed = (disposal & 0b111) << 2 | (transparentIndex == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, packed] + Self.word(delay) + [transparentIndex ?? 0, 0]
    }

    /// The NETSCAPE2.0 looping application extension (0 = forever, n = repeat n times).
    mutating func netscapeLoop(_ count: Int) {
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.word(count) + [0]
    }

    /// A frame at (x, y) of `width × height` indices (row-major, in display order; interlaced
    /// frames are stored in GIF's four-pass row order).
    mutating func frame(
        x: Int, y: Int, width: Int, height: Int, indices: [UInt8],
        localColors: [Color]? = nil, interlaced: Bool = false
    ) {
        bytes += [0x2C] + Self.word(x) + Self.word(y) + Self.word(width) + Self.word(height)
        var packed: UInt8 = interlaced ? 0x40 : 0
        if let localColors {
            let bits = Self.tableBits(localColors.count)
            packed |= 0x80 | UInt8(bits - 1)
            bytes.append(packed)
            bytes += Self.table(localColors, bits: bits)
        } else {
            bytes.append(packed)
        }
        var stored = indices
        if interlaced {
            stored = []
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
                for row in Swift.stride(from: start, to: height, by: step) {
                    stored += indices[(row * width)..<(row * width + width)]
                }
            }
        }
        bytes.append(8)
        bytes += Self.subBlocks(Self.lzwLiterals(stored))
    }

    mutating func trailer() {
        bytes.append(0x3B)
    }

    /// Raw bytes, for damaged files.
    mutating func append(_ raw: [UInt8]) {
        bytes += raw
    }

    private static func word(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    private static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while (1 << bits) < count { bits += 1 }
        return bits
    }

    private static func table(_ colors: [Color], bits: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<(1 << bits) {
            let c: Color = i < colors.count ? colors[i] : (0, 0, 0)
            out += [c.r, c.g, c.b]
        }
        return out
    }

    /// Clear, literals (a clear every 250 so the width stays 9 bits), end-of-information.
    private static func lzwLiterals(_ indices: [UInt8]) -> [UInt8] {
        var codes: [Int] = [256]
        for (n, index) in indices.enumerated() {
            if n > 0 && n % 250 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        codes.append(257)
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for code in codes {
            buffer |= code << bits
            bits += 9
            while bits >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }

    private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let n = min(255, data.count - i)
            out.append(UInt8(n))
            out += data[i..<(i + n)]
            i += n
        }
        out.append(0)
        return out
    }
}
