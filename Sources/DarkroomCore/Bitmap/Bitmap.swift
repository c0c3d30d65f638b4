import DarkroomChains
import DarkroomSystem

/// A decoded image: 8-bit RGBA, premultiplied alpha, rows `bytesPerRow` apart, in sRGB.
///
/// Why this layout: every codec Darkroom links can produce or consume 4-byte RGBA directly, and
/// premultiplied alpha is what resampling, blurring and compositing need to be correct at
/// transparent edges (no dark halos) without a conversion per kernel. An opaque image (every
/// JPEG) is the same in straight and premultiplied form, so `isOpaque` lets codecs and kernels
/// skip the premultiply/unpremultiply passes entirely.
///
/// `Bitmap` is a value type with copy-on-write storage; kernels write through
/// `withUnsafeMutableBytes`, which copies only when the storage is shared.
public struct Bitmap: Sendable {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// Distance in bytes between the starts of two rows; at least `width * 4`.
    public let bytesPerRow: Int
    /// True when every pixel's alpha is 255. Kernels that may introduce transparency clear it;
    /// it is never true for an image that has a transparent pixel.
    public var isOpaque: Bool
    /// The pixel bytes, `height * bytesPerRow` of them, premultiplied RGBA.
    public private(set) var storage: [UInt8]
    /// The size the image would have had without shrink-on-load, set by a decoder that reduced
    /// it (a JPEG decoded at 1/8 scale). The processor that gave the decode hint computes its
    /// target from this size, so the result's dimensions are exactly those a full-size decode
    /// would give (DCT scaling rounds each side up, which would otherwise shift the aspect ratio
    /// by a pixel). Kernels producing a new bitmap leave it nil.
    public var sizeBeforeShrinkOnLoad: PixelSize?

    /// The size processors should treat as the image's own: `sizeBeforeShrinkOnLoad ?? size`.
    public var logicalSize: PixelSize { sizeBeforeShrinkOnLoad ?? size }

    /// The longest side any bitmap may have.
    public static let maximumDimension = PixelSize.maximumDimension

    /// The ceiling this bitmap was allocated under, inherited by every bitmap a kernel derives
    /// from it (a resized or rotated copy), so the limit configured where the image was decoded
    /// holds through the whole chain. See `BitmapLimits`.
    public let limits: BitmapLimits

    /// A bitmap filled with `color` (transparent black unless told otherwise), refused before
    /// allocating when over `limits`.
    public init(width: Int, height: Int, fill color: RGBAColor = .clear, limits: BitmapLimits = BitmapLimits()) throws(BitmapError) {
        try limits.check(width: width, height: height)
        self.limits = limits
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.isOpaque = color.isOpaque
        PixelMemory.reportAllocation(bytes: width * 4 * height)
        let p = color.premultiplied
        if p.r == 0 && p.g == 0 && p.b == 0 && p.a == 0 {
            storage = [UInt8](repeating: 0, count: width * 4 * height)
        } else {
            storage = [UInt8](unsafeUninitializedCapacity: width * 4 * height) { buffer, count in
                var i = 0
                while i < buffer.count {
                    buffer[i] = p.r
                    buffer[i + 1] = p.g
                    buffer[i + 2] = p.b
                    buffer[i + 3] = p.a
                    i += 4
                }
                count = buffer.count
            }
        }
    }

    /// A bitmap whose bytes are written by `initializer`, which must set every byte of the
    /// `height * bytesPerRow` buffer it is given. `isOpaque` is the caller's promise. Refused
    /// before allocating when over `limits`; kernels pass their source's `limits`.
    public init(
        width: Int, height: Int, isOpaque: Bool, limits: BitmapLimits = BitmapLimits(),
        initializingWith initializer: (_ bytes: UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws -> Void
    ) throws {
        try limits.check(width: width, height: height)
        self.limits = limits
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.isOpaque = isOpaque
        PixelMemory.reportAllocation(bytes: width * 4 * height)
        let rowBytes = width * 4
        storage = try [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            try initializer(buffer, rowBytes)
            count = buffer.count
        }
    }

    /// Wraps existing premultiplied RGBA bytes (tightly packed rows).
    public init(
        width: Int, height: Int, premultipliedRGBA bytes: [UInt8], isOpaque: Bool, limits: BitmapLimits = BitmapLimits()
    ) throws(BitmapError) {
        try limits.check(width: width, height: height)
        guard bytes.count == width * height * 4 else {
            throw BitmapError.bufferSizeMismatch(expected: width * height * 4, got: bytes.count)
        }
        self.limits = limits
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.isOpaque = isOpaque
        self.storage = bytes
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Reads the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer(body)
    }

    /// Writes the bytes in place (copying first if the storage is shared with another value).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// The premultiplied RGBA of one pixel.
    public func premultipliedPixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(size)")
        let i = y * bytesPerRow + x * 4
        return (storage[i], storage[i + 1], storage[i + 2], storage[i + 3])
    }

    /// The straight-alpha colour of one pixel (what a viewer shows over a transparent background).
    public func pixel(x: Int, y: Int) -> RGBAColor {
        let p = premultipliedPixel(x: x, y: y)
        guard p.a != 0 else { return .clear }
        guard p.a != 255 else { return RGBAColor(red: p.r, green: p.g, blue: p.b) }
        func un(_ v: UInt8) -> UInt8 { UInt8(min(255, (Int(v) * 255 + Int(p.a) / 2) / Int(p.a))) }
        return RGBAColor(red: un(p.r), green: un(p.g), blue: un(p.b), alpha: p.a)
    }

    /// Scans the alpha channel; true when every pixel (of `rect`, when given) is opaque. Use after
    /// a kernel whose effect on alpha is data-dependent, or on the part of a frame that changed.
    public func scanIsOpaque(in rect: PixelRect? = nil) -> Bool {
        let area = rect ?? PixelRect(x: 0, y: 0, width: width, height: height)
        precondition(
            area.x >= 0 && area.y >= 0 && area.width >= 0 && area.height >= 0 && area.x + area.width <= width
                && area.y + area.height <= height, "scanIsOpaque: \(area) is outside the \(width)×\(height) bitmap")
        return storage.withUnsafeBufferPointer { bytes in
            for y in area.y..<(area.y + area.height) {
                var i = y * bytesPerRow + area.x * 4 + 3
                let end = i + area.width * 4
                while i < end {
                    if bytes[i] != 255 { return false }
                    i += 4
                }
            }
            return true
        }
    }
}

/// Why a bitmap could not be made.
public enum BitmapError: CodedDarkroomError, Equatable {
    case emptySize(width: Int, height: Int)
    /// Over `maximumDimension` per side or over the `maxPixelCount` of the limits it was checked against.
    case tooLarge(width: Int, height: Int, maxPixelCount: Int)
    case bufferSizeMismatch(expected: Int, got: Int)

    public var description: String {
        switch self {
        case .emptySize(let w, let h):
            return "image size \(w)x\(h) is empty; width and height must be at least 1"
        case .tooLarge(let w, let h, let maxPixelCount):
            // Name the one limit that refused, and how to move it.
            if w > Bitmap.maximumDimension || h > Bitmap.maximumDimension {
                return "image size \(w)x\(h) is over the \(Bitmap.maximumDimension) px per side bitmap limit (a fixed limit)"
            }
            let tenths = Int((Double(w) * Double(h) / 100_000).rounded())
            return
                "image size \(w)x\(h) = \(tenths / 10).\(tenths % 10) MP, over the \(maxPixelCount / 1_000_000) MP per image limit (raise it with --max-output-pixels)"
        case .bufferSizeMismatch(let expected, let got):
            return "pixel buffer holds \(got) bytes, expected \(expected)"
        }
    }
}

extension BitmapError {
    /// One code: every case is reported as the size limit it almost always is (a header's size
    /// passed the decoder but not the bitmap), a code scripts already match on.
    public enum Code: String, CaseIterable, Sendable {
        case tooLarge = "image.too-large"
    }

    public var code: Code { .tooLarge }
    public var isTransient: Bool { false }
}
