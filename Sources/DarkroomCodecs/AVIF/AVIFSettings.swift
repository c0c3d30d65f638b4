import CAvif

/// What the AVIF encoder does with `EncodeOptions`: libavif 0.11 has no quality setting, only
/// quantizers (0 = lossless … 63 = worst), so the 1…100 quality scale is mapped onto one fixed
/// quantizer, `((100 − quality) × 63 + 50) / 100` (libavif 1.0's own mapping, so a quality means
/// the same as in `avifenc -q` of later versions): 80 → 13, 50 → 32, 100 → 0. From quality 90 up
/// the chroma is kept whole (4:4:4), below it is halved both ways (4:2:0). See
/// docs/formats-and-color.md for the measurements.
public struct AVIFSettings: Sendable, Hashable {
    /// libavif's speed, 0 (slowest, smallest) … 10 (fastest).
    public var speed: Int
    /// The colour and alpha quantizer, 0 … 63.
    public var quantizer: Int
    /// Whether the chroma planes keep every sample (4:4:4) rather than a quarter (4:2:0).
    public var fullChroma: Bool

    /// Speed 6: over the nine corpus photos at 800 px it needs about 12 % fewer bytes than speed 8
    /// for the same PSNR, at 2.3× the encoder's CPU time; speed 7 keeps only a tenth of that gain,
    /// and speed 5 (vips') costs 3.8× speed 6's time for 4 % more (docs/formats-and-color.md#avif).
    public static let defaultSpeed = 6

    /// The lowest quality written with 4:4:4 chroma: vips (libheif) draws the line at 90 too. Up
    /// there 4:2:0 caps the PSNR (colour edges), and the bytes 4:4:4 adds buy more than the same
    /// bytes spent on a lower quantizer.
    public static let fullChromaQuality = 90

    public init(_ options: EncodeOptions) {
        speed = min(10, max(0, options.avifSpeed ?? Self.defaultSpeed))
        quantizer = options.lossless ? 0 : Self.quantizer(quality: options.quality)
        fullChroma = options.lossless || options.quality >= Self.fullChromaQuality
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

    /// The part of a result's cache key that says how AVIF bytes were made: encoder, speed,
    /// quantizer and chroma (`;avif=aom/s6/q13/420`). Only AVIF output keys carry it.
    public var cacheKeyPart: String { ";avif=\(Self.codecName)/s\(speed)/q\(quantizer)/\(fullChroma ? "444" : "420")" }
}
