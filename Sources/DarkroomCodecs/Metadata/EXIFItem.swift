/// Finds the TIFF structure `ImageMetadata.exif` holds inside the forms EXIF arrives in.
public enum EXIFItem {
    /// The TIFF structure in `item`: the item itself when it starts with a TIFF byte-order mark
    /// (`II*\0` or `MM\0*`); a HEIF Exif item's TIFF header at the 4-byte offset it starts with
    /// (ISO/IEC 23008-12 A.2.1), often followed by `Exif\0\0`; or after a bare `Exif\0\0` prefix.
    /// libavif versions and HEIC coder modules differ in whether they strip the offset, so the
    /// byte-order mark is what is looked for. Nil when none is found (the block is then not kept,
    /// as any broken metadata).
    public static func tiff(in item: [UInt8]?) -> [UInt8]? {
        guard let item else { return nil }
        func isTIFF(at offset: Int) -> Bool {
            guard offset >= 0, offset + 4 <= item.count else { return false }
            let mark = Array(item[offset..<offset + 4])
            return mark == [0x49, 0x49, 0x2A, 0x00] || mark == [0x4D, 0x4D, 0x00, 0x2A]
        }
        if isTIFF(at: 0) { return item }
        if item.count >= 4 {
            let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
            if offset < item.count - 4, isTIFF(at: 4 + offset) { return Array(item[(4 + offset)...]) }
        }
        for candidate in [6, 10] where isTIFF(at: candidate) { return Array(item[candidate...]) }
        return nil
    }
}
