import DarkroomCodecs

/// Hand-made and patched HEIF boxes for the HEIC module's hostile-input tests.
enum HEICFixtureBoxes {
    /// The offsets of every box of `type` in `bytes` (a plain scan for the four letters after a
    /// size: good enough for the small fixtures, whose pixels never spell a box name there).
    static func offsets(of type: String, in bytes: [UInt8]) -> [Int] {
        let name = Array(type.utf8)
        return (4..<max(4, bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == name }.map { $0 - 4 }
    }

    /// A box: its 32-bit size, type and payload.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        let header: [UInt8] = [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)]
        return header + Array(type.utf8) + payload
    }

    /// A HEIC file whose `meta` holds only an `iref` with a `dimg` reference from item 1 to
    /// `tiles` items: what a grid of that many tiles declares, without a byte of image data.
    static func tileBomb(tiles: Int) -> [UInt8] {
        let brands: [UInt8] = Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        let ftyp = box("ftyp", brands)
        let count = UInt16(tiles)
        var references: [UInt8] = []
        for index in 0..<tiles {
            let item = UInt16(truncatingIfNeeded: index + 2)
            references += [UInt8(item >> 8), UInt8(item & 0xFF)]
        }
        let counts: [UInt8] = [0, 1, UInt8(count >> 8), UInt8(count & 0xFF)]
        let dimg = box("dimg", counts + references)
        let iref = box("iref", [0, 0, 0, 0] + dimg)
        return ftyp + box("meta", [0, 0, 0, 0] + iref)
    }

    /// The code of the `CodecError` `body` throws, or nil when it throws nothing.
    static func code(_ body: () throws -> Void) -> CodecError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CodecError)?.code
        }
    }
}
