import DarkroomChains
import DarkroomCore

/// The tracks of a HEIF image sequence (`moov`): how many there are, the first one's size
/// (`tkhd`), and the most samples any one holds (`stsz`), read from the headers alone. The sample
/// count is the number the sample-size table declares, checked against the frame limit before
/// the decoder builds its table from it (a constant-size `stsz` declares any count in 20 bytes).
struct HEIFTracks {
    var count = 0
    var size: PixelSize?
    var sampleCount = 0

    init(_ reader: ISOBoxReader, moov: ISOBoxReader.Box) {
        for trak in reader.boxes(in: moov.payload) where trak.type == "trak" {
            count += 1
            if size == nil, let tkhd = reader.first("tkhd", in: trak.payload) {
                size = Self.size(reader, tkhd: tkhd)
            }
            guard let mdia = reader.first("mdia", in: trak.payload), let minf = reader.first("minf", in: mdia.payload),
                let stbl = reader.first("stbl", in: minf.payload), let stsz = reader.first("stsz", in: stbl.payload),
                stsz.payload.count >= 12
            else { continue }
            sampleCount = max(sampleCount, Int(reader.readUInt32(at: stsz.payload.lowerBound + 8)))
        }
    }

    /// `tkhd`'s width and height, 16.16 fixed point at its end (84 bytes in version 0, 96 in 1).
    static func size(_ reader: ISOBoxReader, tkhd: ISOBoxReader.Box) -> PixelSize? {
        guard !tkhd.payload.isEmpty else { return nil }
        let length = reader.bytes[tkhd.payload.lowerBound] == 1 ? 96 : 84
        guard tkhd.payload.count >= length else { return nil }
        let end = tkhd.payload.lowerBound + length
        return PixelSize(width: Int(reader.readUInt32(at: end - 8) >> 16), height: Int(reader.readUInt32(at: end - 4) >> 16))
    }
}
