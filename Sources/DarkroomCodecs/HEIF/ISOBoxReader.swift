/// Walks the boxes of an ISO base media file (ISO/IEC 14496-12) in a byte range, bounds-checked:
/// a box that claims to reach past its parent ends the walk instead of reading out of range, so
/// hostile sizes cost nothing. Only box headers are read here; callers read the payloads they need.
struct ISOBoxReader {
    /// One box: its type and where its payload lies in the file's bytes.
    struct Box {
        var type: String
        /// The payload (after the size, type and any 64-bit size).
        var payload: Range<Int>
    }

    let bytes: [UInt8]

    /// The boxes directly inside `range`, in order; a box that does not fit ends the list.
    func boxes(in range: Range<Int>) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, boxes.count < 4_096 {
            var size = Int(readUInt32(at: offset))
            let type = FileTypeBox.fourCC(bytes, at: offset + 4)
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { break }
                let large = readUInt64(at: offset + 8)
                guard large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            boxes.append(Box(type: type, payload: offset + header..<offset + size))
            offset += size
        }
        return boxes
    }

    /// The first box of `type` directly inside `range`.
    func first(_ type: String, in range: Range<Int>) -> Box? {
        boxes(in: range).first { $0.type == type }
    }

    func readUInt16(at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func readUInt32(at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    func readUInt64(at offset: Int) -> UInt64 {
        UInt64(readUInt32(at: offset)) << 32 | UInt64(readUInt32(at: offset + 4))
    }
}

/// The coding type of a HEIF file's primary item (`av01`, `hvc1`, `grid`…), from `meta`'s `pitm`
/// and `iinf` boxes. A grid's tiles share one coding type, so for a `grid` primary item the type of
/// the first coded item is given instead.
enum HEIFPrimaryItem {
    static func codingType(in bytes: [UInt8]) -> String? {
        let reader = ISOBoxReader(bytes: bytes)
        // `meta` is a full box: 4 bytes of version and flags precede its children.
        guard let meta = reader.first("meta", in: 0..<bytes.count), meta.payload.count >= 4 else { return nil }
        let children = meta.payload.lowerBound + 4..<meta.payload.upperBound
        guard let primary = primaryID(reader, in: children), let items = itemTypes(reader, in: children) else { return nil }
        guard let type = items[primary] else { return nil }
        if type == "grid" { return items.values.first { $0 == "av01" || $0 == "hvc1" || $0 == "hev1" } }
        return type
    }

    /// `pitm`: version 0 has a 16-bit item id, version 1 a 32-bit one.
    static func primaryID(_ reader: ISOBoxReader, in range: Range<Int>) -> UInt32? {
        guard let pitm = reader.first("pitm", in: range), pitm.payload.count >= 6 else { return nil }
        let start = pitm.payload.lowerBound
        if reader.bytes[start] == 0 { return UInt32(reader.readUInt16(at: start + 4)) }
        guard pitm.payload.count >= 8 else { return nil }
        return reader.readUInt32(at: start + 4)
    }

    /// Every `infe` of `iinf`: item id → item type. Only `infe` versions 2 and 3 carry a type.
    private static func itemTypes(_ reader: ISOBoxReader, in range: Range<Int>) -> [UInt32: String]? {
        guard let iinf = reader.first("iinf", in: range), iinf.payload.count >= 6 else { return nil }
        let countBytes = reader.bytes[iinf.payload.lowerBound] == 0 ? 2 : 4
        let entries = iinf.payload.lowerBound + 4 + countBytes..<iinf.payload.upperBound
        guard !entries.isEmpty else { return nil }
        var types: [UInt32: String] = [:]
        for infe in reader.boxes(in: entries) where infe.type == "infe" {
            let start = infe.payload.lowerBound
            guard infe.payload.count >= 4 else { continue }
            switch reader.bytes[start] {
            case 2 where infe.payload.count >= 12:
                types[UInt32(reader.readUInt16(at: start + 4))] = FileTypeBox.fourCC(reader.bytes, at: start + 8)
            case 3 where infe.payload.count >= 14:
                types[reader.readUInt32(at: start + 4)] = FileTypeBox.fourCC(reader.bytes, at: start + 10)
            default:
                continue
            }
        }
        return types
    }
}
