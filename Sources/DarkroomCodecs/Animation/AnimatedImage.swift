import DarkroomChains
import DarkroomCore

/// A whole animation in memory: every frame composited, in order.
///
/// For short animations and tests. A caller that processes frames one by one should read them
/// with `AnimationFrameReader` instead and keep only what it needs: 60 frames of 800×600 are
/// 115 MB here.
public struct AnimatedImage: Sendable {
    /// The size of every frame's bitmap.
    public var canvasSize: PixelSize
    /// How many times the animation plays in all; 0 = forever (see `AnimationInfo.loopCount`).
    public var loopCount: Int
    public var frames: [AnimationFrame]

    public init(canvasSize: PixelSize, loopCount: Int, frames: [AnimationFrame]) {
        self.canvasSize = canvasSize
        self.loopCount = loopCount
        self.frames = frames
    }

    /// The sum of the frames' durations.
    public var totalDurationMilliseconds: Int {
        frames.reduce(0) { $0 + $1.durationMilliseconds }
    }
}
