import DarkroomChains

/// The eight EXIF orientations (TIFF tag 0x0112): how the stored pixels must be turned to be
/// shown upright. Decoders apply it, so every `Bitmap` is upright and output carries no tag.
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left/bottom-right diagonal (transpose).
    case leftMirrored = 5
    /// Must be turned 90° clockwise to be upright.
    case right = 6
    /// Mirrored along the top-right/bottom-left diagonal (transverse).
    case rightMirrored = 7
    /// Must be turned 90° counter-clockwise to be upright.
    case left = 8

    /// True when showing the image upright swaps its width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The upright size of an image stored with `size`.
    public func uprightSize(of size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }
}
