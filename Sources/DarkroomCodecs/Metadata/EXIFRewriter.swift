/// Rewrites an EXIF block (a TIFF structure) for an output whose pixels are upright and resized:
/// IFD0 and its Exif (and Interop) sub-IFD are copied entry by entry into a new, compact TIFF in
/// the source's byte order, with
/// - Orientation set to 1 (the decoder turned the pixels upright);
/// - IFD1 (the embedded thumbnail) not written, nor anything that points into the old file
///   (strip, tile and JPEG-interchange offsets, SubIFDs);
/// - MakerNote dropped (vendor data with private offsets, which break once moved);
/// - the GPS IFD dropped unless `keepGPS`;
/// - the stale dimension tags (ImageWidth/Length, PixelX/YDimension) and embedded XMP, IPTC and
///   ICC tags dropped (the output has its own size; `keep` has items for XMP and ICC).
///
/// Hostile input costs bounded work and yields nil (nothing kept), never a crash: only the three
/// known sub-IFDs are followed, each at most once and at a fixed depth (no offset can loop), the
/// entry count is capped by what fits in the block, every value's size is computed without
/// overflow and checked against the block, and the values copied may not add up to more than the
/// result may hold (`ImageMetadata.maximumEXIFBytes`), so the work and memory are bounded by it.
enum EXIFRewriter {
    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
        var subIFD: [Entry]?
    }

    private enum Level { case primary, exif, gps, interop }

    private static let orientation: UInt16 = 0x0112
    private static let exifPointer: UInt16 = 0x8769
    private static let gpsPointer: UInt16 = 0x8825
    private static let interopPointer: UInt16 = 0xA005
    /// Tags never copied: offsets into the old file, vendor data, stale sizes, other metadata.
    private static let dropped: Set<UInt16> = [
        0x0100, 0x0101, 0x0111, 0x0117, 0x0144, 0x0145, 0x014A, 0x0201, 0x0202,  // size, strips, tiles, thumbnail
        0x927C, 0xA002, 0xA003,  // MakerNote, PixelXDimension, PixelYDimension
        0x02BC, 0x83BB, 0x8773,  // XMP, IPTC, ICC inside TIFF
    ]
    private static let copyright: UInt16 = 0x8298
    private static let artist: UInt16 = 0x013B

    /// The rewritten block, or nil when `tiff` is not a usable EXIF block or nothing is left.
    static func rewrite(_ tiff: [UInt8], keepGPS: Bool) -> [UInt8]? {
        parse(tiff) { reader, ifd0, budget in readIFD(reader, at: ifd0, level: .primary, keepGPS: keepGPS, budget: &budget) }
    }

    /// A minimal block with only IFD0's Copyright and Artist, or nil when the source has neither.
    static func copyrightOnly(_ tiff: [UInt8]) -> [UInt8]? {
        parse(tiff) { reader, ifd0, budget in
            readIFD(reader, at: ifd0, level: .primary, keepGPS: false, budget: &budget)?
                .filter { ($0.tag == copyright || $0.tag == artist) && $0.type == 2 }
        }
    }

    private static func parse(_ tiff: [UInt8], entries: (TIFFBytes, Int, inout Int) -> [Entry]?) -> [UInt8]? {
        guard tiff.count >= 8, tiff.count <= ImageMetadata.maximumEXIFBytes else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        let ifd0: [Entry]? = tiff.withUnsafeBufferPointer { bytes in
            let reader = TIFFBytes(bytes: bytes, bigEndian: bigEndian)
            guard reader.uint16(at: 2) == 42, let offset = reader.uint32(at: 4), offset >= 8 else { return nil }
            // What the copied entries may add up to: no more than the result may hold, so a block
            // whose thousands of entries all point at one 64 KB value stops early, not at 300 MB.
            var budget = ImageMetadata.maximumEXIFBytes
            return entries(reader, Int(offset), &budget)
        }
        guard let ifd0, !ifd0.isEmpty else { return nil }
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        write(ifd0, into: &out, bigEndian: bigEndian)
        return out.count <= ImageMetadata.maximumEXIFBytes ? out : nil
    }

    /// The entries of the IFD at `offset` that an output keeps; nil when the IFD is unreadable.
    private static func readIFD(_ reader: TIFFBytes, at offset: Int, level: Level, keepGPS: Bool, budget: inout Int) -> [Entry]? {
        guard let declared = reader.uint16(at: offset) else { return nil }
        // Never trust the count: read only the entries that fit in the block.
        let fitting = max(0, (reader.bytes.count - offset - 2) / 12)
        var entries: [Entry] = []
        var seen = Set<UInt16>()
        for index in 0..<min(Int(declared), fitting) {
            let at = offset + 2 + index * 12
            budget -= 12
            guard budget >= 0 else { return nil }  // the result could not fit: nothing is kept
            guard let tag = reader.uint16(at: at), let type = reader.uint16(at: at + 2),
                let count = reader.uint32(at: at + 4), !dropped.contains(tag), seen.insert(tag).inserted
            else { continue }
            if let child = childLevel(tag: tag, in: level, keepGPS: keepGPS) {
                guard type == 4 || type == 13, count == 1, let target = reader.uint32(at: at + 8),
                    let sub = readIFD(reader, at: Int(target), level: child, keepGPS: keepGPS, budget: &budget), !sub.isEmpty
                else { continue }
                entries.append(Entry(tag: tag, type: 4, count: 1, value: [], subIFD: sub))
            } else if isPointer(tag) {
                continue  // a sub-IFD this level does not have, or GPS not kept
            } else if level == .primary && tag == orientation {
                let one: [UInt8] = reader.bigEndian ? [0, 1] : [1, 0]
                entries.append(Entry(tag: tag, type: 3, count: 1, value: one, subIFD: nil))
            } else if let value = value(reader, entryAt: at, type: type, count: count) {
                budget -= value.count
                guard budget >= 0 else { return nil }
                entries.append(Entry(tag: tag, type: type, count: count, value: value, subIFD: nil))
            }
        }
        return entries
    }

    private static func isPointer(_ tag: UInt16) -> Bool {
        tag == exifPointer || tag == gpsPointer || tag == interopPointer
    }

    /// The sub-IFD `tag` leads to from `level`, if it is one this rewriter follows.
    private static func childLevel(tag: UInt16, in level: Level, keepGPS: Bool) -> Level? {
        switch (level, tag) {
        case (.primary, exifPointer): return .exif
        case (.primary, gpsPointer): return keepGPS ? .gps : nil
        case (.exif, interopPointer): return .interop
        default: return nil
        }
    }

    /// An entry's value bytes: inline when 4 bytes or fewer, else at the offset it gives.
    private static func value(_ reader: TIFFBytes, entryAt at: Int, type: UInt16, count: UInt32) -> [UInt8]? {
        let unit: Int
        switch type {
        case 1, 2, 6, 7: unit = 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: unit = 2  // SHORT, SSHORT
        case 4, 9, 11: unit = 4  // LONG, SLONG, FLOAT
        case 5, 10, 12: unit = 8  // RATIONAL, SRATIONAL, DOUBLE
        default: return nil
        }
        let (size, overflow) = Int(count).multipliedReportingOverflow(by: unit)
        guard !overflow, size > 0, size <= ImageMetadata.maximumEXIFBytes else { return nil }
        let start: Int
        if size <= 4 {
            start = at + 8
        } else {
            guard let offset = reader.uint32(at: at + 8) else { return nil }
            start = Int(offset)
        }
        guard start >= 0, start <= reader.bytes.count - size else { return nil }
        return Array(reader.bytes[start..<(start + size)])
    }

    /// Appends the IFD holding `entries` (sorted by tag, as TIFF requires), their out-of-line
    /// values and sub-IFDs after it; returns its offset. The next-IFD link is 0: no IFD1.
    @discardableResult
    private static func write(_ entries: [Entry], into out: inout [UInt8], bigEndian: Bool) -> Int {
        if out.count % 2 == 1 { out.append(0) }  // IFDs and values start on a word boundary
        let start = out.count
        let sorted = entries.sorted { $0.tag < $1.tag }
        put16(UInt16(sorted.count), at: start, in: &out, bigEndian: bigEndian, appending: true)
        out.append(contentsOf: [UInt8](repeating: 0, count: sorted.count * 12 + 4))
        for (index, entry) in sorted.enumerated() {
            let at = start + 2 + index * 12
            put16(entry.tag, at: at, in: &out, bigEndian: bigEndian)
            put16(entry.type, at: at + 2, in: &out, bigEndian: bigEndian)
            put32(entry.count, at: at + 4, in: &out, bigEndian: bigEndian)
            if let sub = entry.subIFD {
                let offset = write(sub, into: &out, bigEndian: bigEndian)
                put32(UInt32(truncatingIfNeeded: offset), at: at + 8, in: &out, bigEndian: bigEndian)
            } else if entry.value.count <= 4 {
                out.replaceSubrange((at + 8)..<(at + 8 + entry.value.count), with: entry.value)
            } else {
                if out.count % 2 == 1 { out.append(0) }
                put32(UInt32(truncatingIfNeeded: out.count), at: at + 8, in: &out, bigEndian: bigEndian)
                out.append(contentsOf: entry.value)
            }
        }
        return start
    }

    private static func put16(_ value: UInt16, at offset: Int, in out: inout [UInt8], bigEndian: Bool, appending: Bool = false) {
        let bytes = bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        if appending {
            out.append(contentsOf: bytes)
        } else {
            out.replaceSubrange(offset..<(offset + 2), with: bytes)
        }
    }

    private static func put32(_ value: UInt32, at offset: Int, in out: inout [UInt8], bigEndian: Bool) {
        let high = UInt16(value >> 16)
        let low = UInt16(value & 0xFFFF)
        put16(bigEndian ? high : low, at: offset, in: &out, bigEndian: bigEndian)
        put16(bigEndian ? low : high, at: offset + 2, in: &out, bigEndian: bigEndian)
    }
}
