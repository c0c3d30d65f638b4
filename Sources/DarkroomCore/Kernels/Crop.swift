/// Cropping: a copy of whole row segments, no resampling.
extension Bitmap {
    /// The pixels inside `rect`, which is first clipped to the image. Throws
    /// `BitmapError.emptySize` when nothing of `rect` lies inside the image.
    public func cropped(to rect: PixelRect) throws -> Bitmap {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard r.width > 0, r.height > 0 else { throw BitmapError.emptySize(width: r.width, height: r.height) }
        if r.width == width && r.height == height {
            var copy = self
            copy.sizeBeforeShrinkOnLoad = nil
            return copy
        }
        let srcRow = bytesPerRow
        // A crop of an opaque image is opaque; of an image with alpha it may or may not be, and
        // `isOpaque` must never claim opacity that is not there.
        return try Bitmap(width: r.width, height: r.height, isOpaque: isOpaque, limits: limits) { dst, dstRow in
            self.withUnsafeBytes { src in
                let s = UnsafeRawPointer(src.baseAddress!) + r.y * srcRow + r.x * 4
                let d = UnsafeMutableRawPointer(dst.baseAddress!)
                for y in 0..<r.height {
                    (d + y * dstRow).copyMemory(from: s + y * srcRow, byteCount: r.width * 4)
                }
            }
        }
    }
}
