import CDarkroomPlugin

/// One pixel as processors see it: premultiplied red, green, blue and alpha (each colour channel
/// is at most `alpha`).
public struct PluginPixel: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// A view of a host-owned block of premultiplied RGBA8 pixels (`darkroom_bitmap`): the input and
/// the output of `PluginProcessor.process`.
///
/// The view is valid only during the callback that received it: the host allocates and frees the
/// pixels, so a plugin must not keep a `PluginBitmap` or any row buffer it hands out past the
/// return of `process`. That is why it is not `Sendable` and holds no copy of the pixels.
///
/// Writing is `mutating`: the input is passed as a constant, so `input.mutableRow(_:)` or
/// `input[x, y] = …` does not compile, and the ABI's "must not write to input" holds by
/// construction. Rows and pixels are bounds-checked (a bad index traps, which ends the host
/// process; the row buffers let a kernel work without a check per pixel).
public struct PluginBitmap {
    /// Width in pixels, at least 1.
    public let width: Int
    /// Height in pixels, at least 1.
    public let height: Int
    /// Bytes from the start of one row to the start of the next; at least `width * 4`.
    public let stride: Int
    /// True when every alpha byte is 255. The host clears it on the output before the call; set
    /// it when the output is opaque (copy the input's when alpha is untouched), so an opaque JPEG
    /// stays a JPEG and skips the alpha passes.
    public var isOpaque: Bool
    private let pixels: UnsafeMutablePointer<UInt8>

    /// Wraps pixels that stay valid while the view is used, for example a buffer a plugin's own
    /// unit test allocates to call its processor without a host.
    public init(pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, isOpaque: Bool) {
        precondition(width >= 1 && height >= 1 && stride >= width * 4, "a bitmap of \(width)x\(height) needs a stride of at least \(width * 4), not \(stride)")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.isOpaque = isOpaque
    }

    /// The view of a bitmap the host passed; nil when it has no pixels or an impossible shape.
    init?(_ bitmap: darkroom_bitmap) {
        let width = Int(bitmap.width)
        let height = Int(bitmap.height)
        guard let pixels = bitmap.pixels, let stride = Int(exactly: bitmap.stride), width >= 1, height >= 1, stride >= width * 4 else { return nil }
        self.init(pixels: pixels, width: width, height: height, stride: stride, isOpaque: bitmap.is_opaque != 0)
    }

    /// The size in pixels.
    public var size: PluginSize { PluginSize(width: width, height: height) }

    /// Row `y`: `width * 4` bytes, red, green, blue, alpha for each pixel, left to right.
    public func row(_ y: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rowStart(y))
    }

    /// Row `y`, to write.
    public mutating func mutableRow(_ y: Int) -> UnsafeMutableBufferPointer<UInt8> {
        rowStart(y)
    }

    /// The pixel at column `x` of row `y`.
    public subscript(x x: Int, y y: Int) -> PluginPixel {
        get {
            let p = pixelStart(x, y)
            return PluginPixel(red: p[0], green: p[1], blue: p[2], alpha: p[3])
        }
        set {
            let p = pixelStart(x, y)
            p[0] = newValue.red
            p[1] = newValue.green
            p[2] = newValue.blue
            p[3] = newValue.alpha
        }
    }

    private func rowStart(_ y: Int) -> UnsafeMutableBufferPointer<UInt8> {
        precondition(y >= 0 && y < height, "row \(y) outside a bitmap \(height) rows high")
        return UnsafeMutableBufferPointer(start: pixels + y * stride, count: width * 4)
    }

    private func pixelStart(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside a \(width)x\(height) bitmap")
        return pixels + y * stride + x * 4
    }
}

/// The pixels belong to the host and are valid only during one callback on one thread: a bitmap
/// must never be sent to another task.
@available(*, unavailable)
extension PluginBitmap: Sendable {}
