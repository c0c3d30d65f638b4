import DarkroomCore

/// Straight-alpha RGBA8 in and out of `Bitmap`, for coders written outside this module (plugin
/// modules' coders decode into and encode from straight RGBA, as most formats store it).
public enum StraightAlpha {
    /// A `width × height` bitmap whose rows `fill` writes as straight RGBA (rows `bytesPerRow`
    /// apart, every byte), premultiplied afterwards with `isOpaque` set from the alpha seen.
    /// `limits` are checked before anything is allocated.
    public static func bitmap(
        width: Int, height: Int, limits: BitmapLimits, source: String,
        fill: (_ bytes: UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws(CodecError) -> Void
    ) throws(CodecError) -> Bitmap {
        var opaque = true
        var bitmap = try CodecBitmap.make(width: width, height: height, limits: limits, source: source) { bytes, bytesPerRow throws(CodecError) in
            try fill(bytes, bytesPerRow)
            guard let base = bytes.baseAddress else { return }
            for y in 0..<height where !AlphaKernels.premultiplyInPlace(base + y * bytesPerRow, pixelCount: width) {
                opaque = false
            }
        }
        bitmap.isOpaque = opaque
        return bitmap
    }

    /// The bitmap's pixels as straight RGBA, rows `width * 4` bytes apart.
    public static func pixels(of bitmap: Bitmap) -> [UInt8] {
        let rowBytes = bitmap.width * 4
        return [UInt8](unsafeUninitializedCapacity: rowBytes * bitmap.height) { buffer, count in
            bitmap.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                for y in 0..<bitmap.height {
                    AlphaKernels.unpremultiply(from + y * bitmap.bytesPerRow, to: to + y * rowBytes, pixelCount: bitmap.width)
                }
            }
            count = rowBytes * bitmap.height
        }
    }
}
