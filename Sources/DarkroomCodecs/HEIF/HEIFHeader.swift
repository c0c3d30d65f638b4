import DarkroomChains
import DarkroomCore

/// What a HEIF-family file (AVIF, HEIC) says about its primary image before any pixel is decoded:
/// its size (`ispe`), orientation (`irot`, `imir`), whether it has an alpha or an ICC profile, and,
/// for an image sequence (`avis`, `msf1`), how many frames its tracks hold. Read with the
/// bounds-checked `ISOBoxReader`, so absurd sizes and counts are numbers to check, never memory
/// to allocate.
struct HEIFHeader: Equatable {
    /// The primary item's `ispe`, or a sequence's first track size (`tkhd`) when it has none.
    var size: PixelSize
    /// The primary item's `irot` then `imir` (MIAF's order) as the EXIF orientation that turns
    /// the stored pixels upright. An Exif block in the file is not read: it never orients.
    var orientation: ImageOrientation
    /// The most samples any track holds (1 for a still image).
    var frameCount: Int
    /// An auxiliary alpha item, or an alpha track, is present.
    var hasAlpha: Bool
    /// The primary item has a `colr` box of type `prof` or `rICC`.
    var hasICCProfile: Bool
    /// The file ends inside a top-level box (one declares more bytes than are left): what a
    /// decoder's failure means is then `.truncated`.
    var isCutShort: Bool

    /// Reads the header, or says what is missing (`.corrupt` for a file without `meta`, an
    /// `ispe` or a track size).
    init(bytes: [UInt8], source: String) throws(CodecError) {
        let reader = ISOBoxReader(bytes: bytes)
        let top = reader.boxes(in: 0..<bytes.count)
        let item = top.first { $0.type == "meta" }.flatMap { HEIFItemProperties(reader, meta: $0) }
        let tracks = top.first { $0.type == "moov" }.map { HEIFTracks(reader, moov: $0) }
        let covered = top.last.map { $0.payload.upperBound } ?? 0
        isCutShort = bytes.count - covered >= 8 && Int(reader.readUInt32(at: covered)) > bytes.count - covered
        guard let size = item?.size ?? tracks?.size else {
            if isCutShort { throw CodecError(.truncated, source: source, "truncated HEIF file (it ends inside a box)") }
            throw CodecError(.corrupt, source: source, "HEIF file has no image size (no 'ispe' for its primary item and no track size)")
        }
        self.size = size
        orientation = item?.orientation ?? .up
        frameCount = max(1, tracks?.sampleCount ?? 1)
        hasAlpha = (item?.hasAlpha ?? false) || (tracks?.count ?? 0) > 1
        hasICCProfile = item?.hasICCProfile ?? false
    }

    /// The EXIF orientation equal to rotating by `angle` × 90° anticlockwise, then mirroring
    /// (`mode` 0: top and bottom exchanged; 1: left and right), as HEIF orders `irot` and `imir`.
    static func orientation(rotation angle: Int, mirror mode: Int?) -> ImageOrientation {
        switch (angle & 3, mode) {
        case (0, nil): return .up
        case (0, 0?), (2, 1?): return .downMirrored
        case (0, _), (2, 0?): return .upMirrored
        case (1, nil): return .left
        case (1, 0?), (3, 1?): return .leftMirrored
        case (1, _), (3, 0?): return .rightMirrored
        case (2, _): return .down
        default: return .right
        }
    }
}

/// The properties of a HEIF file's primary item: `pitm` names it, `ipma` lists the indices of
/// its properties in `ipco`.
struct HEIFItemProperties {
    var size: PixelSize?
    var orientation: ImageOrientation = .up
    var hasAlpha = false
    var hasICCProfile = false

    init?(_ reader: ISOBoxReader, meta: ISOBoxReader.Box) {
        guard meta.payload.count >= 4 else { return nil }
        let children = meta.payload.lowerBound + 4..<meta.payload.upperBound
        guard let primary = HEIFPrimaryItem.primaryID(reader, in: children),
            let iprp = reader.first("iprp", in: children),
            let ipco = reader.first("ipco", in: iprp.payload)
        else { return nil }
        let properties = reader.boxes(in: ipco.payload)
        // Any auxiliary item of type alpha (its `auxC` URN ends in "alpha").
        hasAlpha = properties.contains { $0.type == "auxC" && Self.endsWithAlpha(reader.bytes[$0.payload]) }
        var rotation = 0
        var mirror: Int?
        for index in reader.boxes(in: iprp.payload).filter({ $0.type == "ipma" }).flatMap({ Self.indices(reader, ipma: $0, item: primary) }) {
            guard index >= 1, index <= properties.count else { continue }
            let box = properties[index - 1]
            let start = box.payload.lowerBound
            switch box.type {
            case "ispe" where box.payload.count >= 12:
                size = PixelSize(width: Int(reader.readUInt32(at: start + 4)), height: Int(reader.readUInt32(at: start + 8)))
            case "irot" where box.payload.count >= 1:
                rotation = Int(reader.bytes[start] & 3)
            case "imir" where box.payload.count >= 1:
                mirror = Int(reader.bytes[start] & 1)
            case "colr" where box.payload.count >= 4:
                let type = FileTypeBox.fourCC(reader.bytes, at: start)
                hasICCProfile = hasICCProfile || type == "prof" || type == "rICC"
            default:
                continue
            }
        }
        orientation = HEIFHeader.orientation(rotation: rotation, mirror: mirror)
    }

    private static func endsWithAlpha(_ payload: ArraySlice<UInt8>) -> Bool {
        let text = payload.dropFirst(4).prefix { $0 != 0 }
        return text.count >= 5 && Array(text.suffix(5)) == Array("alpha".utf8)
    }

    /// The 1-based `ipco` indices `ipma` associates with `item` (0 = no property).
    static func indices(_ reader: ISOBoxReader, ipma: ISOBoxReader.Box, item: UInt32) -> [Int] {
        let range = ipma.payload
        guard range.count >= 8 else { return [] }
        let version = reader.bytes[range.lowerBound]
        let wideIndices = reader.bytes[range.lowerBound + 3] & 1 == 1
        let entries = Int(reader.readUInt32(at: range.lowerBound + 4))
        var offset = range.lowerBound + 8
        // Each entry takes at least 3 bytes, so a hostile count ends with the payload.
        for _ in 0..<min(entries, range.count / 3) {
            let idBytes = version < 1 ? 2 : 4
            guard offset + idBytes + 1 <= range.upperBound else { return [] }
            let id = version < 1 ? UInt32(reader.readUInt16(at: offset)) : reader.readUInt32(at: offset)
            let count = Int(reader.bytes[offset + idBytes])
            offset += idBytes + 1
            let width = wideIndices ? 2 : 1
            guard offset + count * width <= range.upperBound else { return [] }
            if id == item {
                return (0..<count).map { n in
                    wideIndices ? Int(reader.readUInt16(at: offset + n * 2) & 0x7FFF) : Int(reader.bytes[offset + n] & 0x7F)
                }
            }
            offset += count * width
        }
        return []
    }
}
