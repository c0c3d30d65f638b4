/// Metadata carried beside the pixels: what a decoder found in the source (when
/// `DecodeOptions.keep` asked for it), and what an encoder embeds (`EncodeOptions.embedded`).
///
/// Format-neutral on purpose, so every encoder (JPEG, PNG, WebP, and any later one such as AVIF)
/// reads the same three fields.
public struct ImageMetadata: Sendable, Hashable {
    /// An ICC profile, as the profile's own bytes.
    public var icc: [UInt8]?
    /// EXIF as a TIFF structure (from `II`/`MM`; without JPEG's `Exif\0\0` prefix).
    public var exif: [UInt8]?
    /// An XMP packet (UTF-8 XML text).
    public var xmp: [UInt8]?

    public init(icc: [UInt8]? = nil, exif: [UInt8]? = nil, xmp: [UInt8]? = nil) {
        self.icc = icc
        self.exif = exif
        self.xmp = xmp
    }

    /// True when there is nothing to embed.
    public var isEmpty: Bool { icc == nil && exif == nil && xmp == nil }

    /// The largest EXIF kept, in bytes: what one JPEG APP1 segment holds after `Exif\0\0`. A
    /// larger block (source or rewritten) is dropped, in every output format alike.
    public static let maximumEXIFBytes = 65_533 - 6
    /// The largest XMP packet kept: what one JPEG APP1 segment holds after the XMP namespace
    /// (extended XMP is not written). A larger packet is dropped.
    public static let maximumXMPBytes = 65_533 - 29
    /// The largest ICC profile kept: what 255 JPEG APP2 chunks hold.
    public static let maximumICCBytes = 255 * 65_519

    /// What an output embeds of this source metadata under `keep`: the profile as found (the
    /// decoder kept it only when it could); the EXIF rewritten, or reduced to Copyright and
    /// Artist for `copyright`; the XMP without GPS. Anything that does not survive its rewriter
    /// (hostile, broken, too large) is dropped, never an error.
    public func prepared(keeping keep: MetadataKeep) -> ImageMetadata {
        var out = ImageMetadata()
        if keep.contains(.icc), let icc, icc.count <= Self.maximumICCBytes { out.icc = icc }
        if let exif, exif.count <= Self.maximumEXIFBytes {
            if keep.contains(.exif) {
                out.exif = EXIFRewriter.rewrite(exif, keepGPS: keep.contains(.gps))
            } else if keep.contains(.copyright) {
                out.exif = EXIFRewriter.copyrightOnly(exif)
            }
        }
        if keep.contains(.xmp), let xmp, xmp.count <= Self.maximumXMPBytes {
            out.xmp = XMPRewriter.rewrite(xmp, keepGPS: keep.contains(.gps))
        }
        return out
    }
}
