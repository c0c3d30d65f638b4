import DarkroomChains
import DarkroomCore

/// The size a WebP is decoded at when the chain starts by making it smaller.
///
/// libwebp scales while decoding, so a 6000×3400 photo becomes a thumbnail without ever
/// existing at full size. Its scaler is an area average, not Lanczos, so decoding straight to the
/// final size is softer than what vipsthumbnail produces; decoding at `oversampling` × the target
/// and letting the processor's Lanczos-3 take the last step agrees better (measured on the
/// corpus: see the codecs report in the README).
enum WebPShrinkOnLoad {
    /// How much larger than the target to decode. 1 would decode at the target itself.
    static let oversampling = 2.0

    /// The decode size for a `source`-sized image and `hint`, or nil when no shrinking applies.
    static func decodeSize(source: PixelSize, hint: DecodeHint?) -> PixelSize? {
        guard let hint else { return nil }
        let target = hint.targetSize(for: source)
        let width = min(source.width, Int((Double(target.width) * oversampling).rounded(.up)))
        let height = min(source.height, Int((Double(target.height) * oversampling).rounded(.up)))
        // Not worth it unless the decode is substantially smaller than the image.
        guard width * 4 < source.width * 3 || height * 4 < source.height * 3 else { return nil }
        return PixelSize(width: max(1, width), height: max(1, height))
    }
}
