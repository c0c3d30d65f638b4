import DarkroomChains
import DarkroomCore

/// The checks the host makes on a HEIC file's `meta` box before a coder module sees it, with the
/// bounds-checked box walker, so a hostile file is refused without a byte of it being decoded:
/// the `meta` box's size, the tile count of a grid (an item's `dimg` references), and every
/// `ispe` (image spatial extent) property against the decode limits.
public enum HEICHeaderLimits {
    /// The most bytes the `meta` box may have: item information, properties and locations. A phone
    /// photo's is a few kilobytes; the bound keeps a crafted one from costing parse time and memory.
    public static let maxMetaBytes = 16 << 20
    /// The most tiles (or other derived-image inputs) one item may reference. A 48 MP phone photo
    /// has 192 tiles of 512×512; the bound is far above any camera's.
    public static let maxTiles = 4_096

    /// Throws the coded error for the first limit `bytes` break: `.tooLarge` for a `meta` box or a
    /// tile count over its bound or an `ispe` over the pixel limits, `.invalidDimensions` for an
    /// empty `ispe`. A file whose boxes cannot be walked passes: the module reports it corrupt.
    public static func check(_ bytes: [UInt8], limits: DecodeLimits, source: String) throws(CodecError) {
        let reader = ISOBoxReader(bytes: bytes)
        guard let meta = reader.first("meta", in: 0..<bytes.count), meta.payload.count >= 4 else { return }
        guard meta.payload.count <= maxMetaBytes else {
            throw CodecError(.tooLarge, source: source, "HEIF meta box of \(meta.payload.count) bytes, over the \(maxMetaBytes) byte limit (a fixed limit)")
        }
        // `meta` is a full box: 4 bytes of version and flags precede its children.
        let children = meta.payload.lowerBound + 4..<meta.payload.upperBound
        if let iref = reader.first("iref", in: children) {
            let tiles = mostDerivedInputs(reader, iref: iref)
            guard tiles <= maxTiles else {
                throw CodecError(.tooLarge, source: source, "HEIF image made of \(tiles) tiles, over the \(maxTiles) tile limit (a fixed limit)")
            }
        }
        guard let iprp = reader.first("iprp", in: children), let ipco = reader.first("ipco", in: iprp.payload) else { return }
        for property in reader.boxes(in: ipco.payload) where property.type == "ispe" && property.payload.count >= 12 {
            let start = property.payload.lowerBound + 4
            let size = PixelSize(width: Int(reader.readUInt32(at: start)), height: Int(reader.readUInt32(at: start + 4)))
            try limits.check(size, source: source)
        }
    }

    /// The largest `reference_count` of a `dimg` (derived image: a grid's tiles) reference.
    /// Version 0 of `iref` writes item ids in 16 bits, version 1 in 32.
    private static func mostDerivedInputs(_ reader: ISOBoxReader, iref: ISOBoxReader.Box) -> Int {
        guard iref.payload.count >= 4 else { return 0 }
        let idBytes = reader.bytes[iref.payload.lowerBound] == 0 ? 2 : 4
        var most = 0
        for reference in reader.boxes(in: iref.payload.lowerBound + 4..<iref.payload.upperBound) where reference.type == "dimg" {
            guard reference.payload.count >= idBytes + 2 else { continue }
            most = max(most, Int(reader.readUInt16(at: reference.payload.lowerBound + idBytes)))
        }
        return most
    }
}
