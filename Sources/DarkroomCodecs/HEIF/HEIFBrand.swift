/// Which HEIF-family format a file is, from its `ftyp` box: AVIF and HEIC are both HEIF (ISO/IEC
/// 23008-12) files and share the `mif1`/`miaf` brands, so the magic number alone cannot tell them
/// apart. The major brand decides (`avif`/`avis` → AVIF; `heic`/`heix`/`heim`/`heis` → HEIC);
/// failing that, a compatible brand of one of the two families; with only the generic `mif1` or
/// `msf1`, the primary item's coding type (`av01` or `hvc1`), read from the `meta` box.
public enum HEIFBrand {
    /// Brands that name AVIF.
    static let avifBrands: Set<String> = ["avif", "avis"]
    /// Brands that name HEIC (HEVC-coded HEIF).
    static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
    /// The generic HEIF brands: the primary item's type decides.
    static let genericBrands: Set<String> = ["mif1", "msf1", "miaf"]

    /// `.avif`, `.heic`, or nil when the bytes do not start with a HEIF `ftyp` box of either family.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        guard let brands = FileTypeBox(bytes) else { return nil }
        if let routed = format(ofBrand: brands.major) { return routed }
        if let routed = brands.compatible.lazy.compactMap(format(ofBrand:)).first { return routed }
        guard ([brands.major] + brands.compatible).contains(where: genericBrands.contains) else { return nil }
        switch HEIFPrimaryItem.codingType(in: bytes) {
        case "av01": return .avif
        case "hvc1", "hev1": return .heic
        default: return nil
        }
    }

    private static func format(ofBrand brand: String) -> ImageFormat? {
        if avifBrands.contains(brand) { return .avif }
        if heicBrands.contains(brand) { return .heic }
        return nil
    }
}

/// The `ftyp` box at the start of an ISO base media file: its major brand and compatible brands.
struct FileTypeBox {
    var major: String
    var compatible: [String]

    /// Nil unless the bytes start with a well-formed `ftyp` box.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16, size <= bytes.count, size % 4 == 0 else { return nil }
        major = Self.fourCC(bytes, at: 8)
        compatible = stride(from: 16, to: size, by: 4).map { Self.fourCC(bytes, at: $0) }
    }

    static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
