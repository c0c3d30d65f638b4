/// Builds small little-endian EXIF (TIFF) blocks for the rewriter tests, and reads them back.
enum TIFFFixture {
    indirect enum Value {
        case short(UInt16)
        case ascii(String)
        case undefined([UInt8])
        case rational(UInt32, UInt32)
        case ifd([(UInt16, Value)])
    }

    /// A block with `ifd0` and, linked after it, `ifd1` (a thumbnail's IFD).
    static func block(_ ifd0: [(UInt16, Value)], ifd1: [(UInt16, Value)]? = nil) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        let next = write(ifd0, into: &out).next
        if let ifd1 {
            let offset = write(ifd1, into: &out).start
            put32(UInt32(offset), at: next, in: &out)
        }
        return out
    }

    /// Writes an IFD; returns where it starts and where its next-IFD link is.
    @discardableResult
    private static func write(_ entries: [(UInt16, Value)], into out: inout [UInt8]) -> (start: Int, next: Int) {
        if out.count % 2 == 1 { out.append(0) }
        let start = out.count
        out += [UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
        out += [UInt8](repeating: 0, count: entries.count * 12 + 4)
        for (index, (tag, value)) in entries.enumerated() {
            let at = start + 2 + index * 12
            put16(tag, at: at, in: &out)
            let (type, count, bytes): (UInt16, Int, [UInt8])
            switch value {
            case .short(let v): (type, count, bytes) = (3, 1, [UInt8(v & 0xFF), UInt8(v >> 8)])
            case .ascii(let s): (type, count, bytes) = (2, s.utf8.count + 1, Array(s.utf8) + [0])
            case .undefined(let b): (type, count, bytes) = (7, b.count, b)
            case .rational(let n, let d): (type, count, bytes) = (5, 1, le32(n) + le32(d))
            case .ifd(let children):
                put16(4, at: at + 2, in: &out)
                put32(1, at: at + 4, in: &out)
                let child = write(children, into: &out).start
                put32(UInt32(child), at: at + 8, in: &out)
                continue
            }
            put16(type, at: at + 2, in: &out)
            put32(UInt32(count), at: at + 4, in: &out)
            if bytes.count <= 4 {
                out.replaceSubrange((at + 8)..<(at + 8 + bytes.count), with: bytes)
            } else {
                if out.count % 2 == 1 { out.append(0) }
                put32(UInt32(out.count), at: at + 8, in: &out)
                out += bytes
            }
        }
        return (start, start + 2 + entries.count * 12)
    }

    /// The tags of the IFD at `offset` (IFD0 when nil) of a little-endian block: tag → raw value
    /// bytes (inline or pointed to), plus its next-IFD link.
    static func tags(_ tiff: [UInt8], at offset: Int? = nil) -> (tags: [UInt16: [UInt8]], next: Int) {
        let ifd = offset ?? Int(u32(tiff, 4))
        let count = Int(u16(tiff, ifd))
        var tags: [UInt16: [UInt8]] = [:]
        for index in 0..<count {
            let at = ifd + 2 + index * 12
            let type = u16(tiff, at + 2)
            let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1][Int(type)] ?? 1
            let size = Int(u32(tiff, at + 4)) * unit
            let start = size <= 4 ? at + 8 : Int(u32(tiff, at + 8))
            tags[u16(tiff, at)] = Array(tiff[start..<(start + size)])
        }
        return (tags, Int(u32(tiff, ifd + 2 + count * 12)))
    }

    /// The offset a pointer tag's value holds.
    static func pointer(_ value: [UInt8]?) -> Int? {
        guard let value, value.count == 4 else { return nil }
        return Int(u32(value, 0))
    }

    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(b, at)) | UInt32(u16(b, at + 2)) << 16 }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
    private static func put16(_ v: UInt16, at: Int, in out: inout [UInt8]) {
        out[at] = UInt8(v & 0xFF)
        out[at + 1] = UInt8(v >> 8)
    }
    private static func put32(_ v: UInt32, at: Int, in out: inout [UInt8]) { out.replaceSubrange(at..<(at + 4), with: le32(v)) }
}
