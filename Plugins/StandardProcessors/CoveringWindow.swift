import DarkroomChains
import DarkroomCore

extension Bitmap {
    /// The `kept` window at `origin` of this image scaled to `covering`, resampling only that
    /// window: what `resize(mode: fill)` and `smartCrop` return once they have chosen the window.
    ///
    /// The window is placed in the covering size's pixel grid (as resizing then cropping would),
    /// then mapped back onto the decoded pixels (`logicalRegion`, which accounts for shrink-on-load)
    /// and resampled from there with Lanczos-3.
    func resampledWindow(of kept: PixelSize, at origin: (x: Int, y: Int), covering: PixelSize) throws -> Bitmap {
        let extent = logicalRegion
        let sx = extent.width / Double(covering.width)
        let sy = extent.height / Double(covering.height)
        let region = (
            x: Double(origin.x) * sx, y: Double(origin.y) * sy,
            width: Double(kept.width) * sx, height: Double(kept.height) * sy
        )
        return try resampled(to: kept, from: region)
    }
}
