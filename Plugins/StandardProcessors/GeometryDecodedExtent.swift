import DarkroomCore

extension Bitmap {
    /// The part of this bitmap that shows the whole logical image, in its own pixel units.
    ///
    /// A JPEG decoded at 1/n scale has `ceil(side / n)` pixels per side: its last column and row
    /// cover only part of n source pixels, so the image proper is `side / n` pixels wide (753.5 of
    /// 754 for a 6028-pixel side at 1/8). Resampling that exact extent onto the target keeps the
    /// geometry of a full-size decode instead of stretching by up to half a pixel. Any other
    /// reduction (WebP decodes straight to a size) is taken as covering the whole bitmap.
    var logicalRegion: (x: Double, y: Double, width: Double, height: Double) {
        let full = (x: 0.0, y: 0.0, width: Double(width), height: Double(height))
        guard let logical = sizeBeforeShrinkOnLoad, logical != size else { return full }
        for n in [2, 4, 8] where (logical.width + n - 1) / n == width && (logical.height + n - 1) / n == height {
            return (0, 0, Double(logical.width) / Double(n), Double(logical.height) / Double(n))
        }
        return full
    }
}
