import DarkroomCore

/// Finds the orientation tag (0x0112) in IFD0 of an Exif block's TIFF structure.
///
/// Everything is read through bounds-checked helpers, so a hostile block (an IFD offset past the
/// end, an entry count of 65535 in a 20-byte block, a wrong type) yields nil — "no usable
/// orientation" — never a crash or a read outside the block. Only IFD0 is read: that is where
/// the tag lives for the primary image (IFD1 describes the embedded thumbnail).
enum EXIFOrientationReader {
    /// The orientation in `tiff` (the bytes after `Exif\0\0`), or nil when it is absent or unusable.
    static func orientation(tiff: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II", Intel
        case (0x4D, 0x4D): bigEndian = true  // "MM", Motorola
        default: return nil
        }
        let reader = TIFFBytes(bytes: tiff, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let ifdOffset = reader.uint32(at: 4) else { return nil }
        let ifd = Int(ifdOffset)
        guard ifd >= 8, let declaredEntries = reader.uint16(at: ifd) else { return nil }
        // Never trust the count: read only the entries that fit in the block.
        let fitting = (tiff.count - ifd - 2) / 12
        let entries = min(Int(declaredEntries), max(0, fitting))
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard reader.uint16(at: entry) == 0x0112 else { continue }
            guard let type = reader.uint16(at: entry + 2), let count = reader.uint32(at: entry + 4), count >= 1 else {
                return nil
            }
            let value: Int?
            switch type {
            case 3: value = reader.uint16(at: entry + 8).map(Int.init)  // SHORT, as the spec says
            case 4: value = reader.uint32(at: entry + 8).map(Int.init)  // LONG, written by a few tools
            default: value = nil
            }
            return value.flatMap(ImageOrientation.init(rawValue:))
        }
        return nil
    }
}

/// Bounds-checked integer reads in one byte order (shared with `EXIFRewriter`).
struct TIFFBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    let bigEndian: Bool

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}
