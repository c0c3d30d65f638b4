/// The bytes handed to libjpeg, after deciding what to do about a missing EOI marker.
///
/// libjpeg reports a file that ends without EOI with the warning "Premature end of JPEG file"
/// whether one marker or half the image is missing; in strict mode every warning is an error.
/// Darkroom's rule, in strict mode:
/// - data ending in FF D9, or with an EOI marker followed by trailing bytes: decoded as is;
/// - no EOI at all, but every scan's data complete (`JPEGScanWalker`): FF D9 is appended and
///   the image decodes. If a scan is in fact cut short, libjpeg hits the appended marker
///   mid-scan, warns, and the decode fails as `.truncated`;
/// - no EOI and scans missing (a progressive file cut between scans, which libjpeg would
///   otherwise show silently blurred): `.truncated` at once.
/// In lenient mode the data is used as it is: libjpeg's own recovery applies.
struct JPEGDecodeInput {
    /// What libjpeg reads.
    private(set) var bytes: [UInt8]
    /// True when the data had no EOI marker.
    let endOfImageWasMissing: Bool

    init(_ data: [UInt8], header: JPEGHeader, strict: Bool, source: String) throws(CodecError) {
        let count = data.count
        guard strict, let firstScan = header.firstScanOffset,
            !(count >= 2 && data[count - 2] == 0xFF && data[count - 1] == 0xD9)
        else {
            bytes = data
            endOfImageWasMissing = false
            return
        }
        let summary = data.withUnsafeBufferPointer {
            JPEGScanWalker.summarize($0, firstScanOffset: firstScan, componentIDs: header.componentIDs)
        }
        if summary.foundEndOfImage {
            bytes = data  // trailing bytes after EOI: libjpeg stops at EOI and never reads them
            endOfImageWasMissing = false
            return
        }
        guard summary.coversEveryCoefficient else {
            throw CodecError(
                .truncated, source: source,
                "truncated JPEG data: the file ends before all of its scans (no end-of-image marker); use --lenient to accept the partial image")
        }
        var completed = data
        completed.append(contentsOf: [0xFF, 0xD9])
        bytes = completed
        endOfImageWasMissing = true
    }

    /// For a decode at 1/8 scale: replaces the bytes by a progressive file's scans that such a
    /// decode uses (`JPEGEighthScaleScans`), when that applies; the pixels are the same.
    mutating func dropScansUnusedAtEighthScale() {
        if let pruned = bytes.withUnsafeBufferPointer({ JPEGEighthScaleScans.pruned($0) }) {
            bytes = pruned
        }
    }
}
