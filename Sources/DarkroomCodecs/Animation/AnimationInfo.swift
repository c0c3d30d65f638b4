import DarkroomChains
import DarkroomCore

/// What an animated decoder learns before decoding any frame: enough to check the limits and
/// to set up an encoder for the output.
public struct AnimationInfo: Sendable, Equatable {
    public var format: ImageFormat
    /// The canvas (GIF's logical screen) every frame covers.
    public var canvasSize: PixelSize
    /// How many frames the file holds; 1 for a still image.
    public var frameCount: Int
    /// How many times the animation plays in all; 0 = forever. This is WebP's meaning. A GIF's
    /// NETSCAPE2.0 count says how many times to repeat after the first showing, so a stored n
    /// becomes n + 1 (0 stays forever), and a GIF without the extension plays once, as in
    /// browsers (and as `gif2webp` converts it).
    public var loopCount: Int
    /// Whether any frame may have transparent pixels (each frame's `isOpaque` is exact).
    public var hasAlpha: Bool

    public init(format: ImageFormat, canvasSize: PixelSize, frameCount: Int, loopCount: Int, hasAlpha: Bool) {
        self.format = format
        self.canvasSize = canvasSize
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.hasAlpha = hasAlpha
    }
}
