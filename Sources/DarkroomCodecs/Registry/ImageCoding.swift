import DarkroomChains
import DarkroomCore

/// What a decoder learns from the header alone, without allocating pixels.
public struct ImageInfo: Sendable, Equatable {
    public var format: ImageFormat
    /// Size as stored (before orientation).
    public var storedSize: PixelSize
    /// EXIF orientation; `.up` when absent or unsupported by the format.
    public var orientation: ImageOrientation
    /// Number of frames; 1 for still images.
    public var frameCount: Int
    /// Whether the format's header says there may be transparency.
    public var hasAlpha: Bool
    /// Whether an ICC profile is embedded.
    public var hasICCProfile: Bool

    public init(
        format: ImageFormat, storedSize: PixelSize, orientation: ImageOrientation = .up,
        frameCount: Int = 1, hasAlpha: Bool, hasICCProfile: Bool = false
    ) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        self.hasICCProfile = hasICCProfile
    }

    /// Size once turned upright.
    public var uprightSize: PixelSize { orientation.uprightSize(of: storedSize) }

    /// True for an animation (processed as its first frame for now).
    public var isAnimated: Bool { frameCount > 1 }
}

/// How to decode.
public struct DecodeOptions: Sendable {
    /// The chain's shrink-on-load hint, applied to the upright image.
    public var hint: DecodeHint?
    public var limits: DecodeLimits
    /// The ceiling the decoded bitmap is allocated under, and so the one every bitmap the chain
    /// derives from it inherits. Checked after `limits`, at allocation: a hard stop even when
    /// `limits` were raised past it.
    public var bitmapLimits: BitmapLimits
    /// What to keep of the source (a job's `keep`): with `.icc` an RGB profile is kept in
    /// `DecodedImage.metadata` instead of converted to sRGB; with `.exif`, `.copyright` or `.xmp`
    /// the raw blocks are collected there. Empty (the default): sRGB, nothing collected.
    public var keep: MetadataKeep

    public init(
        hint: DecodeHint? = nil, limits: DecodeLimits = DecodeLimits(), bitmapLimits: BitmapLimits = BitmapLimits(),
        keep: MetadataKeep = []
    ) {
        self.hint = hint
        self.limits = limits
        self.bitmapLimits = bitmapLimits
        self.keep = keep
    }
}

/// A decoded image and what was learnt about it.
public struct DecodedImage: Sendable {
    /// Upright, premultiplied, and sRGB unless `metadata.icc` holds the profile its colours are
    /// in. `sizeBeforeShrinkOnLoad` is set when the decoder reduced it.
    public var bitmap: Bitmap
    public var info: ImageInfo
    /// The source's profile (kept instead of converted), EXIF and XMP, as `DecodeOptions.keep`
    /// asked; empty by default.
    public var metadata: ImageMetadata

    public init(bitmap: Bitmap, info: ImageInfo, metadata: ImageMetadata = ImageMetadata()) {
        self.bitmap = bitmap
        self.info = info
        self.metadata = metadata
    }
}

/// A decoder for one format (SDWebImage's coder, decode half).
public protocol ImageDecoding: Sendable {
    var format: ImageFormat { get }
    /// True when the bytes start like this format.
    func canDecode(_ bytes: [UInt8]) -> Bool
    /// Reads the header only; checks `limits`; allocates no pixels.
    func readInfo(_ image: EncodedImage, limits: DecodeLimits) throws(CodecError) -> ImageInfo
    /// Decodes to an upright sRGB bitmap, refusing anything over `options.limits` before any
    /// pixel allocation, and shrinking on load towards `options.hint` where the format allows.
    func decode(_ image: EncodedImage, options: DecodeOptions) throws(CodecError) -> DecodedImage
    /// False for a decoder that only reads headers (a plugin coder that writes a format but cannot
    /// read its pixels): the cache still describes stored results with it. True by default.
    var decodesPixels: Bool { get }
}

extension ImageDecoding {
    public var decodesPixels: Bool { true }
}

/// How to encode.
public struct EncodeOptions: Sendable, Hashable {
    /// 1…100 for lossy formats (JPEG, lossy WebP, AVIF). Default 80.
    public var quality: Int = 80
    /// JPEG: write progressive scans.
    public var progressive: Bool = false
    /// WebP and AVIF: lossless instead of lossy.
    public var lossless: Bool = false
    /// The colour transparent pixels are flattened onto for formats without alpha (JPEG).
    public var background: RGBAColor = .white
    /// Metadata to embed (ICC profile, EXIF, XMP), already prepared for the output
    /// (`ImageMetadata.prepared`); nil (the default) writes none. The renderer sets it per image
    /// from the source and the job's `keep`; every encoder that can hold a field writes it.
    public var embedded: ImageMetadata?

    /// AVIF: libavif's speed, 0 (slowest, smallest) … 10 (fastest); nil for
    /// `AVIFSettings.defaultSpeed`.
    public var avifSpeed: Int?

    public init(
        quality: Int = 80, progressive: Bool = false, lossless: Bool = false, background: RGBAColor = .white,
        embedded: ImageMetadata? = nil, avifSpeed: Int? = nil
    ) {
        self.quality = quality
        self.progressive = progressive
        self.lossless = lossless
        self.background = background
        self.embedded = embedded
        self.avifSpeed = avifSpeed
    }
}

/// An encoder for one format (SDWebImage's coder, encode half). Output is sRGB with no metadata,
/// unless `EncodeOptions.embedded` carries some.
public protocol ImageEncoding: Sendable {
    var format: ImageFormat { get }
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(CodecError) -> [UInt8]
}
