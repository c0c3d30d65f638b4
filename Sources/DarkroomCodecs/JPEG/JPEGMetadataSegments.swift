/// Writes `ImageMetadata` into a JPEG that TurboJPEG produced, as marker segments placed after
/// SOI and the JFIF APP0 segment, before anything else:
/// - EXIF: APP1 `Exif\0\0` + the TIFF block;
/// - XMP: APP1 `http://ns.adobe.com/xap/1.0/\0` + the packet;
/// - ICC: APP2 `ICC_PROFILE\0`, sequence number, chunk count + at most 65,519 profile bytes per
///   chunk (what a 65,535-byte segment holds after its length and that 14-byte header).
///
/// TurboJPEG 2.1 (Debian 12's 2.1.5) has no `tj3SetICCProfile`, so the segments are spliced in
/// here. Sizes were bounded by `ImageMetadata.prepared`; anything still too large for a segment
/// is left out rather than written broken.
enum JPEGMetadataSegments {
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let iccHeader: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    /// The most profile bytes one APP2 chunk carries.
    static let iccChunkBytes = 65_519

    /// `jpeg` with the segments for `metadata` inserted.
    static func embed(_ metadata: ImageMetadata, into jpeg: [UInt8]) -> [UInt8] {
        let segments = self.segments(for: metadata)
        guard !segments.isEmpty, jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
        var insertAt = 2
        // Keep JFIF's APP0 first, where JFIF readers look for it.
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            insertAt = min(jpeg.count, 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])))
        }
        var out: [UInt8] = []
        out.reserveCapacity(jpeg.count + segments.count)
        out.append(contentsOf: jpeg[..<insertAt])
        out.append(contentsOf: segments)
        out.append(contentsOf: jpeg[insertAt...])
        return out
    }

    /// The marker segments, in order: EXIF, XMP, ICC.
    static func segments(for metadata: ImageMetadata) -> [UInt8] {
        var out: [UInt8] = []
        if let exif = metadata.exif { appendSegment(0xE1, exifHeader, exif[...], to: &out) }
        if let xmp = metadata.xmp { appendSegment(0xE1, xmpHeader, xmp[...], to: &out) }
        if let icc = metadata.icc, !icc.isEmpty {
            let count = (icc.count + iccChunkBytes - 1) / iccChunkBytes
            guard count <= 255 else { return out }
            for index in 0..<count {
                let chunk = icc[(index * iccChunkBytes)..<min(icc.count, (index + 1) * iccChunkBytes)]
                appendSegment(0xE2, iccHeader + [UInt8(index + 1), UInt8(count)], chunk, to: &out)
            }
        }
        return out
    }

    private static func appendSegment(_ marker: UInt8, _ header: [UInt8], _ payload: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let length = 2 + header.count + payload.count
        guard length <= 0xFFFF else { return }
        out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        out += header
        out += payload
    }
}
