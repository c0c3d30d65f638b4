/// Right-angle transforms: EXIF orientation, `flip`, and `rotate` by multiples of 90°.
///
/// One routine covers all eight cases: for every destination pixel it steps through the source
/// with a fixed x and y stride, so each case is a choice of start offset and two strides, with
/// no per-pixel branching. Pixels are moved as 32-bit words.
extension Bitmap {
    /// This image turned upright according to `orientation`.
    public func applying(_ orientation: ImageOrientation) throws -> Bitmap {
        if orientation == .up { return self }
        let out = orientation.uprightSize(of: size)
        // For destination (dx, dy), the source pixel is start + dx*stepX + dy*stepY (in pixels,
        // with rows `sw` apart).
        let sw = bytesPerRow / 4
        let w = width
        let h = height
        let start: Int
        let stepX: Int
        let stepY: Int
        switch orientation {
        case .up: (start, stepX, stepY) = (0, 1, sw)
        case .upMirrored: (start, stepX, stepY) = (w - 1, -1, sw)
        case .down: (start, stepX, stepY) = ((h - 1) * sw + w - 1, -1, -sw)
        case .downMirrored: (start, stepX, stepY) = ((h - 1) * sw, 1, -sw)
        case .leftMirrored: (start, stepX, stepY) = (0, sw, 1)  // transpose
        case .right: (start, stepX, stepY) = ((h - 1) * sw, -sw, 1)  // 90° clockwise
        case .rightMirrored: (start, stepX, stepY) = ((h - 1) * sw + w - 1, -sw, -1)  // transverse
        case .left: (start, stepX, stepY) = (w - 1, sw, -1)  // 90° counter-clockwise
        }
        var result = try Bitmap(width: out.width, height: out.height, isOpaque: isOpaque, limits: limits) { dst, dstRow in
            self.withUnsafeBytes { src in
                let s = UnsafeRawPointer(src.baseAddress!).assumingMemoryBound(to: UInt32.self)
                let d = UnsafeMutableRawPointer(dst.baseAddress!).assumingMemoryBound(to: UInt32.self)
                let dw = dstRow / 4
                for dy in 0..<out.height {
                    var si = start + dy * stepY
                    let row = d + dy * dw
                    for dx in 0..<out.width {
                        row[dx] = s[si]
                        si += stepX
                    }
                }
            }
        }
        if let full = sizeBeforeShrinkOnLoad {
            result.sizeBeforeShrinkOnLoad = orientation.uprightSize(of: full)
        }
        return result
    }
}
