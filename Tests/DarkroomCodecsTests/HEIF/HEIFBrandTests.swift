import Testing

@testable import DarkroomCodecs

@Suite("HEIF brand routing")
struct HEIFBrandTests {
    /// A box: 32-bit size, type, payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
    }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        box("ftyp", Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) })
    }

    /// A `meta` box whose primary item (id 1) has `type`, as phones and encoders write it.
    static func meta(primaryType type: String, version3: Bool = false) -> [UInt8] {
        let pitm = box("pitm", [0, 0, 0, 0, 0, 1])
        let infe =
            version3
            ? box("infe", [3, 0, 0, 0, 0, 0, 0, 1, 0, 0] + Array(type.utf8))
            : box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array(type.utf8))
        let iinf = box("iinf", [0, 0, 0, 0, 0, 1] + infe)
        return box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + pitm + iinf)
    }

    @Test(
        "the major brand decides", arguments: [("avif", ImageFormat.avif), ("avis", .avif), ("heic", .heic), ("heix", .heic), ("heim", .heic), ("heis", .heic)])
    func majorBrand(brand: String, format: ImageFormat) {
        #expect(ImageFormat.sniff(Self.ftyp(brand, ["mif1", "miaf"]) + Self.meta(primaryType: "xxxx")) == format)
    }

    @Test("with a generic major brand, a family's compatible brand decides")
    func compatibleBrand() {
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["mif1", "avif"])) == .avif)
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["heic", "mif1"])) == .heic)
    }

    @Test("with mif1 alone, the primary item's type decides")
    func primaryItemType() {
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["mif1", "miaf"]) + Self.meta(primaryType: "av01")) == .avif)
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["mif1"]) + Self.meta(primaryType: "hvc1")) == .heic)
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["mif1"]) + Self.meta(primaryType: "hvc1", version3: true)) == .heic)
        #expect(ImageFormat.sniff(Self.ftyp("mif1", ["mif1"]) + Self.meta(primaryType: "jpeg")) == nil)
    }

    @Test("other ISO files and truncated or lying boxes are not HEIF")
    func notHEIF() {
        #expect(ImageFormat.sniff(Self.ftyp("isom", ["isom", "mp41"])) == nil)
        #expect(ImageFormat.sniff(Array(Self.ftyp("avif", ["mif1"]).prefix(12))) == nil)
        var lying = Self.ftyp("mif1", ["mif1"]) + Self.meta(primaryType: "av01")
        lying[lying.count - 40] = 0xFF  // a child box now claims to run past its parent
        _ = ImageFormat.sniff(lying)  // must not trap
    }
}
