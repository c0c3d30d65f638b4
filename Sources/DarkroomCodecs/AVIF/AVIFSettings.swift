import CAvif

/// What the AVIF encoder does with `EncodeOptions`: libavif 0.11 has no quality setting, only
/// quantizers (0 = lossless … 63 = worst), so the 1…100 quality scale is mapped onto one fixed
/// quantizer, `((100 − quality) × 63 + 50) / 100` (libavif 1.0's own mapping, so a quality means
/// the same as in `avifenc -q` of later versions): 80 → 13, 50 → 32, 100 → 0. See
/// docs/formats-and-color.md for the measurements.
public struct AVIFSettings: Sendable, Hashable {
    /// libavif's speed, 0 (slowest, smallest) … 10 (fastest).
    public var speed: Int
    /// The colour and alpha quantizer, 0 … 63.
    public var quantizer: Int

    /// Speed 8: against 6 it takes a third to a half of the time for the same bytes and 0.3–0.7 dB
    /// less PSNR; 10 saves more time but wrote 37 % more bytes (docs/formats-and-color.md#avif).
    public static let defaultSpeed = 8

    public init(_ options: EncodeOptions) {
        speed = min(10, max(0, options.avifSpeed ?? Self.defaultSpeed))
        quantizer = options.lossless ? 0 : Self.quantizer(quality: options.quality)
    }

    /// The quantizer for a quality of 1…100 (clamped).
    public static func quantizer(quality: Int) -> Int {
        ((100 - min(100, max(1, quality))) * 63 + 50) / 100
    }

    /// The AV1 encoder libavif uses (`aom` in Debian's build), or `none` when it has none.
    public static let codecName: String = {
        guard let name = avifCodecName(AVIF_CODEC_CHOICE_AUTO, AVIF_CODEC_FLAG_CAN_ENCODE.rawValue) else { return "none" }
        return String(cString: name)
    }()

    /// The part of a result's cache key that says how AVIF bytes were made: encoder, speed and
    /// quantizers (`;avif=aom/s8/q13`). Only AVIF output keys carry it.
    public var cacheKeyPart: String { ";avif=\(Self.codecName)/s\(speed)/q\(quantizer)" }
}
