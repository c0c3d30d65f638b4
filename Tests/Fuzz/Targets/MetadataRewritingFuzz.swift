import DarkroomCodecs

/// The rewriters behind `keep`, through `ImageMetadata.prepared`: an EXIF block kept whole
/// (`exif`) or as its copyright (`copyright`), or an XMP packet (`xmp`), chosen by the first byte
/// (its value mod 3; bit 2 adds `gps`), the rest being the block. What `keep` embeds must fit its
/// segment and be safe to prepare again.
enum MetadataRewritingFuzz {
    static let target = FuzzTarget(
        name: "metadata",
        summary: "EXIF and XMP rewriting for keep: the result fits its segment, is a fixed point, and holds no GPS unless kept"
    ) { bytes in
        guard let first = bytes.first else { return }
        let gps: MetadataKeep = first & 4 != 0 ? .gps : []
        let block = Array(bytes.dropFirst())
        switch first % 3 {
        case 0, 1:
            let keep: MetadataKeep = first % 3 == 0 ? [.exif] : [.copyright]
            guard let out = ImageMetadata(exif: block).prepared(keeping: keep.union(gps)).exif else { return }
            if out.count > ImageMetadata.maximumEXIFBytes {
                FuzzFailure.stop("metadata", "a rewritten EXIF block has \(out.count) bytes, over the APP1 limit")
            }
            if ImageMetadata(exif: out).prepared(keeping: keep.union(gps)).exif != out {
                FuzzFailure.stop("metadata", "a rewritten EXIF block changes when rewritten again")
            }
        default:
            guard let out = ImageMetadata(xmp: block).prepared(keeping: gps.union(.xmp)).xmp else { return }
            if gps.isEmpty && out.indices.contains(where: { out[$0...].starts(with: "exif:GPS".utf8) }) {
                FuzzFailure.stop("metadata", "a rewritten XMP packet still has an exif:GPS property")
            }
            if out.count > ImageMetadata.maximumXMPBytes || ImageMetadata(xmp: out).prepared(keeping: gps.union(.xmp)).xmp != out {
                FuzzFailure.stop("metadata", "a rewritten XMP packet is too large or changes when rewritten again")
            }
        }
    }
}
