import DarkroomChains

extension UnitPoint {
    /// The origin of a `window` placed in `container` to keep this focal point in view, as
    /// thumbor's focal points and imgproxy's `fp` gravity place it: centred on the point, then
    /// pushed back inside the container. Per axis, `clamp(round(f·W − w/2), 0, W − w)`, with `W`
    /// the container's extent and `w` the window's (rounded half away from zero).
    ///
    /// Unlike an anchor (`origin(of:in:)`), which puts the window's point at `f` on the
    /// container's point at `f`, a focal point is the window's centre wherever the edges allow:
    /// `(0.5, 0.5)` is the same as `center`, but `(0.8, 0.5)` keeps a subject at 80 % of the width
    /// in the middle of the window rather than at 80 % of it.
    ///
    /// Both extents are in one scale (the image's for `crop`, the covering size's for
    /// `resize(mode: fill)`), so the window depends only on relative positions, not on the scale
    /// the image was decoded at.
    func focusOrigin(of window: PixelSize, in container: PixelSize) -> (x: Int, y: Int) {
        func axis(_ fraction: Double, _ extent: Int, _ side: Int) -> Int {
            let centred = Int((fraction * Double(extent) - Double(side) / 2).rounded())
            return min(max(centred, 0), max(extent - side, 0))
        }
        return (axis(x, container.width, window.width), axis(y, container.height, window.height))
    }
}
