import DarkroomChains
import DarkroomCore

/// What a JPEG's marker segments say, learnt without decoding any pixel.
struct JPEGHeader: Sendable, Equatable {
    /// The frame's size as stored (before EXIF orientation).
    var size: PixelSize
    /// 1 (grey), 3 (YCbCr or RGB) or 4 (CMYK or YCCK).
    var componentCount: Int { componentIDs.count }
    /// The component identifiers from SOF, in frame order.
    var componentIDs: [UInt8]
    /// True for a progressive frame (SOF2, SOF6, SOF10, SOF14).
    var isProgressive: Bool
    /// Orientation from the first Exif APP1 block; `.up` when absent or unusable.
    var orientation: ImageOrientation
    /// The embedded ICC profile, reassembled from its APP2 chunks.
    var iccProfile: JPEGICCProfile
    /// The transform byte of an APP14 `Adobe` segment (0: none/CMYK, 1: YCbCr, 2: YCCK); nil
    /// when there is no such segment. Photoshop, which writes it, stores CMYK inverted.
    var adobeTransform: UInt8?
    /// Offset of the first SOS marker, or nil when the data ends before any scan.
    var firstScanOffset: Int?
    /// Where the first Exif APP1 block's TIFF structure (after `Exif\0\0`) lies in the file.
    var exifRange: Range<Int>? = nil
    /// Where the first XMP APP1 packet (after its namespace header) lies in the file.
    var xmpRange: Range<Int>? = nil
}

/// Walks a JPEG's marker segments up to the first scan (SOS): frame size and components from SOF,
/// orientation from APP1 Exif, the ICC profile from APP2, the Adobe transform flag from APP14.
///
/// It reads only the header, so it is cheap and allocates nothing pixel-sized; every length is
/// checked against the data before use. Garbage between segments is skipped the way libjpeg
/// does (it warns, and a strict decode turns that warning into an error later).
enum JPEGMarkerScanner {
    /// Reads the header of `bytes`, which must start with SOI (FF D8).
    static func scan(_ bytes: [UInt8], source: String) throws(CodecError) -> JPEGHeader {
        try bytes.withUnsafeBufferPointer { (data) throws(CodecError) -> JPEGHeader in
            try scan(data, source: source)
        }
    }

    private static func scan(_ data: UnsafeBufferPointer<UInt8>, source: String) throws(CodecError) -> JPEGHeader {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
            throw CodecError(.corrupt, source: source, "is not a JPEG file (no start-of-image marker)")
        }
        var frame: (size: PixelSize, componentIDs: [UInt8], progressive: Bool)?
        var orientation: ImageOrientation?
        var icc = JPEGICCChunkAssembler()
        var adobeTransform: UInt8?
        var exifRange: Range<Int>?
        var xmpRange: Range<Int>?
        var position = 2
        while position < data.count {
            // Find the next marker: skip stray bytes, then any 0xFF fill bytes.
            while position < data.count && data[position] != 0xFF { position += 1 }
            while position < data.count && data[position] == 0xFF { position += 1 }
            guard position < data.count else { break }
            let marker = data[position]
            position += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD7:
                continue  // stuffed zero, TEM, RSTn: no length, nothing to read
            case 0xD8:
                throw CodecError(.corrupt, source: source, "corrupt JPEG data: a second start-of-image marker inside the header")
            case 0xD9:
                throw CodecError(.corrupt, source: source, "corrupt JPEG data: end-of-image marker before any image data")
            case 0x02...0xBF:
                // Reserved codes libjpeg refuses too ("Unsupported marker type"); text after
                // FF D8 FF (an HTML page behind a JPEG signature) lands here.
                throw CodecError(
                    .corrupt, source: source, "corrupt JPEG data: 0x\(String(marker, radix: 16, uppercase: true)) at byte \(position - 1) is not a JPEG marker")
            default:
                break
            }
            guard position + 2 <= data.count else { break }
            let length = Int(data[position]) << 8 | Int(data[position + 1])
            guard length >= 2 else {
                throw CodecError(
                    .corrupt, source: source, "corrupt JPEG data: marker 0x\(String(marker, radix: 16, uppercase: true)) has an impossible length \(length)")
            }
            let payloadStart = position + 2
            let segmentEnd = position + length
            if marker == 0xDA {
                guard let frame else {
                    throw CodecError(.corrupt, source: source, "corrupt JPEG data: image data (SOS) before the frame header (SOF)")
                }
                return JPEGHeader(
                    size: frame.size, componentIDs: frame.componentIDs, isProgressive: frame.progressive,
                    orientation: orientation ?? .up, iccProfile: icc.profile(), adobeTransform: adobeTransform,
                    firstScanOffset: position - 2, exifRange: exifRange, xmpRange: xmpRange)
            }
            // A segment cut short by the end of the data is only usable for the frame header, whose
            // absence is reported below; other partial segments are simply not read.
            let complete = segmentEnd <= data.count
            let payload = UnsafeBufferPointer(rebasing: data[payloadStart..<min(segmentEnd, data.count)])
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard complete else { break }
                guard frame == nil else {
                    throw CodecError(.corrupt, source: source, "corrupt JPEG data: more than one frame header (SOF)")
                }
                frame = try parseFrame(marker: marker, payload: payload, source: source)
            case 0xE1 where complete && orientation == nil:
                if payload.count > 6, payload[0] == 0x45, payload[1] == 0x78, payload[2] == 0x69, payload[3] == 0x66,
                    payload[4] == 0, payload[5] == 0
                {  // "Exif\0\0"
                    orientation = EXIFOrientationReader.orientation(tiff: UnsafeBufferPointer(rebasing: payload[6...]))
                    if exifRange == nil { exifRange = (payloadStart + 6)..<segmentEnd }
                } else if xmpRange == nil, payload.starts(with: JPEGMetadataSegments.xmpHeader) {
                    xmpRange = (payloadStart + JPEGMetadataSegments.xmpHeader.count)..<segmentEnd
                }
            case 0xE1 where complete && xmpRange == nil:
                if payload.starts(with: JPEGMetadataSegments.xmpHeader) {
                    xmpRange = (payloadStart + JPEGMetadataSegments.xmpHeader.count)..<segmentEnd
                }
            case 0xE2 where complete:
                icc.add(segment: payload)
            case 0xEE where complete:
                if payload.count >= 12, Array(payload[0..<5]) == Array("Adobe".utf8) {
                    adobeTransform = payload[11]
                }
            default:
                break
            }
            position = segmentEnd
        }
        guard let frame else {
            throw CodecError(.truncated, source: source, "truncated JPEG data: the file ends before the frame header (SOF)")
        }
        return JPEGHeader(
            size: frame.size, componentIDs: frame.componentIDs, isProgressive: frame.progressive,
            orientation: orientation ?? .up, iccProfile: icc.profile(), adobeTransform: adobeTransform,
            firstScanOffset: nil, exifRange: exifRange, xmpRange: xmpRange)
    }

    /// Reads SOFn: precision, height, width, component count; refuses processes libjpeg-turbo
    /// cannot decode.
    private static func parseFrame(marker: UInt8, payload: UnsafeBufferPointer<UInt8>, source: String) throws(CodecError)
        -> (size: PixelSize, componentIDs: [UInt8], progressive: Bool)
    {
        guard payload.count >= 6 else {
            throw CodecError(.corrupt, source: source, "corrupt JPEG data: frame header (SOF) too short")
        }
        let precision = Int(payload[0])
        let height = Int(payload[1]) << 8 | Int(payload[2])
        let width = Int(payload[3]) << 8 | Int(payload[4])
        let components = Int(payload[5])
        guard payload.count >= 6 + 3 * components else {
            throw CodecError(.corrupt, source: source, "corrupt JPEG data: frame header (SOF) shorter than its \(components) components")
        }
        switch marker {
        case 0xC3, 0xCB:
            throw CodecError(.unsupported, source: source, "is a lossless JPEG, which is not supported")
        case 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF:
            throw CodecError(.unsupported, source: source, "is a hierarchical JPEG, which is not supported")
        default:
            break
        }
        guard precision == 8 else {
            throw CodecError(.unsupported, source: source, "has \(precision)-bit samples; only 8-bit JPEG is supported")
        }
        guard components == 1 || components == 3 || components == 4 else {
            throw CodecError(.unsupported, source: source, "has \(components) colour components; only 1 (grey), 3 (colour) or 4 (CMYK) are supported")
        }
        let progressive = marker == 0xC2 || marker == 0xCA
        let ids = (0..<components).map { payload[6 + 3 * $0] }
        return (PixelSize(width: width, height: height), ids, progressive)
    }
}
