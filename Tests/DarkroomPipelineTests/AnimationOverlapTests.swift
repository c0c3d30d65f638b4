import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import Testing

@Suite("Animations: the next group of frames decodes while the group before is processed and encoded")
struct AnimationOverlapTests {
    /// An animated WebP of `count` 96×64 frames, each a different diagonal ramp, lossy so the
    /// decoder has real work, 30 ms + 10 ms × index.
    static func animation(count: Int) throws -> EncodedImage {
        var encoder = try AnimatedWebPEncoder(
            canvasSize: PixelSize(width: 96, height: 64), loopCount: 0, options: EncodeOptions(quality: 85))
        for index in 0..<count {
            let bitmap = try Bitmap(width: 96, height: 64, isOpaque: true) { bytes, rowBytes in
                for y in 0..<64 {
                    for x in 0..<96 {
                        let i = y * rowBytes + x * 4
                        bytes[i] = UInt8((x * 2 + index * 17) & 0xFF)
                        bytes[i + 1] = UInt8((y * 3 + index * 29) & 0xFF)
                        bytes[i + 2] = UInt8(((x + y) * 2 + index * 7) & 0xFF)
                        bytes[i + 3] = 255
                    }
                }
            }
            try encoder.add(bitmap, durationMilliseconds: 30 + 10 * index)
        }
        return EncodedImage(bytes: try encoder.finish(), sourceName: "anim.webp")
    }

    @Test(
        "Overlapped (two cores) and in order (one) give the same bytes, for frame counts around the group size",
        arguments: [2, 3, 4, 5, 9, 13])
    func sameBytes(frames: Int) throws {
        let request = RenderRequest(
            source: try Self.animation(count: frames), chain: try PipelineTestSupport.chain("downsample(48x48)|>blur(1)"),
            output: OutputOptions(format: .webp))
        // One core: `RowBands.overlapping` runs the stages one after the other, as before.
        let inOrder = try RowBands.$forcedCount.withValue(1) { try ImageRenderer().render(request) }
        let overlapped = try RowBands.$forcedCount.withValue(2) { try ImageRenderer().render(request) }
        #expect(inOrder.bytes == overlapped.bytes)
        #expect(inOrder.size == PixelSize(width: 48, height: 32))
        let decoded = try WebPDecoder().animationFrames(of: EncodedImage(bytes: overlapped.bytes, sourceName: "out.webp"), options: DecodeOptions())
            .readAll()
        #expect(decoded.frames.count == frames)
        #expect(decoded.frames.map(\.durationMilliseconds) == (0..<frames).map { 30 + 10 * $0 })
    }
}
