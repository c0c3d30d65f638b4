/// Width-only and height-only boxes: `downsample(400x)` fits the image to 400 pixels wide
/// whatever its height, `downsample(x300)` to 300 high.
///
/// A box is a `PixelSize`; a free side is written as 0 (`PixelSize(width: 400, height: 0)` is
/// `400x`). Only the parameters that declare `ParameterSpec.Kind.box` (the standard `downsample`,
/// `resize` and `crop`) accept one; every other size, and every size a plugin receives through
/// the C ABI, has both sides in 1…65535.
extension PixelSize {
    /// A box with only a width (`400x`): the height is free.
    public static func width(_ width: Int) -> PixelSize { PixelSize(width: width, height: 0) }

    /// A box with only a height (`x300`): the width is free.
    public static func height(_ height: Int) -> PixelSize { PixelSize(width: 0, height: height) }

    /// True for a width-only or height-only box: exactly one side is 0 (free), the other is not.
    public var isOneSided: Bool { (width == 0) != (height == 0) && width >= 0 && height >= 0 }

    /// The box with a free side replaced by `maximumDimension`, the longest side any image may
    /// have: fitting inside it, or covering its given side, constrains only the given side, so
    /// the geometry (and a decoder's shrink-on-load) works on it unchanged. A two-sided box is
    /// itself.
    public var bounded: PixelSize {
        guard isOneSided else { return self }
        return PixelSize(
            width: width == 0 ? Self.maximumDimension : width, height: height == 0 ? Self.maximumDimension : height)
    }

    /// The box with a free side taken from `image`: what `resize(400x, mode: stretch)` makes of a
    /// 1000×600 image (400×600: only the given side changes).
    public func completed(from image: PixelSize) -> PixelSize {
        guard isOneSided else { return self }
        return PixelSize(width: width == 0 ? image.width : width, height: height == 0 ? image.height : height)
    }

    /// The chain syntax's spelling: `400x`, `x300`, or `WxH` for a two-sided box.
    public var boxText: String {
        if height == 0 { return "\(width)x" }
        return width == 0 ? "x\(height)" : description
    }

    /// The one-sided box a bare word spells (`x300`, `X300`: a height alone), or nil. The parser
    /// reads such text as a word, since a plugin's choice may be spelled so (`x2`); a `box`
    /// parameter reads the word as a height.
    init?(heightOnlyWord word: String) {
        guard let first = word.first, first == "x" || first == "X" else { return nil }
        let digits = word.dropFirst()
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        guard let height = Int(digits) else { return nil }
        self.init(width: 0, height: height)
    }
}
