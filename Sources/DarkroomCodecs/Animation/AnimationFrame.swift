import DarkroomCore

/// One frame of an animation as it is shown: the whole canvas after this frame was composited
/// onto what the frames before it left (disposal and blending applied), and how long it stays.
public struct AnimationFrame: Sendable {
    /// The full canvas, upright, sRGB, premultiplied, exactly as a still decoder's bitmap
    /// (`isOpaque` is exact: set from this frame's pixels).
    public var bitmap: Bitmap
    /// How long the frame is shown, in milliseconds.
    public var durationMilliseconds: Int
    /// The frame's position in the animation, from 0.
    public var index: Int

    public init(bitmap: Bitmap, durationMilliseconds: Int, index: Int = 0) {
        self.bitmap = bitmap
        self.durationMilliseconds = durationMilliseconds
        self.index = index
    }
}
