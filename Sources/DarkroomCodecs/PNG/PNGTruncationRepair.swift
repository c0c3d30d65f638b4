/// Lenient mode's help for PNGs cut inside an IDAT chunk.
///
/// Reading from a buffer, libspng refuses a chunk whose declared length runs past the end of the
/// data before it inflates any of it, so a file cut inside its only IDAT would yield nothing at
/// all. This rewrites such a file the way it would have looked had the writer stopped there: the
/// last IDAT shortened to the bytes that exist, a placeholder CRC (lenient mode ignores CRCs) and
/// an IEND. libspng then decodes every row the surviving data holds.
enum PNGTruncationRepair {
    /// A repaired copy when `bytes` ends inside an IDAT chunk with some of its data present;
    /// nil when there is nothing to repair (the copy costs one pass over the file).
    static func repaired(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let dataStart = offset + 8
            let (end, overflow) = dataStart.addingReportingOverflow(length + 4)
            if !overflow && end <= bytes.count {
                offset = end
                continue
            }
            // This chunk runs past the end of the data.
            let isIDAT = bytes[offset + 4] == 0x49 && bytes[offset + 5] == 0x44 && bytes[offset + 6] == 0x41 && bytes[offset + 7] == 0x54
            let available = min(length, bytes.count - dataStart)
            guard isIDAT, available > 0 else { return nil }
            var out = [UInt8](bytes[0..<offset])
            out.reserveCapacity(offset + available + 24)
            out += [UInt8(available >> 24 & 0xFF), UInt8(available >> 16 & 0xFF), UInt8(available >> 8 & 0xFF), UInt8(available & 0xFF)]
            out += bytes[(offset + 4)..<(dataStart + available)]
            out += [0, 0, 0, 0]
            // IEND with its real CRC.
            out += [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return out
        }
        return nil
    }
}
