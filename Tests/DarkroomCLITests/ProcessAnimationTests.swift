import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import Foundation
import Testing

@testable import DarkroomCLI
@testable import DarkroomPipeline

@Suite("darkroom process on animated sources")
struct ProcessAnimationTests {
    /// A 5-frame 64×48 animated WebP, each frame one flat colour, 40 ms + 10 ms × index, looping 3
    /// times, written losslessly so the colours are exact.
    static func animation(at path: String) throws {
        var encoder = try AnimatedWebPEncoder(
            canvasSize: PixelSize(width: 64, height: 48), loopCount: 3, options: EncodeOptions(lossless: true))
        for index in 0..<5 {
            let bitmap = try Bitmap(width: 64, height: 48, isOpaque: true) { bytes, rowBytes in
                for y in 0..<48 {
                    for x in 0..<64 {
                        let i = y * rowBytes + x * 4
                        bytes[i] = UInt8(index * 50)
                        bytes[i + 1] = 100
                        bytes[i + 2] = UInt8(250 - index * 50)
                        bytes[i + 3] = 255
                    }
                }
            }
            try encoder.add(bitmap, durationMilliseconds: 40 + 10 * index)
        }
        try Data(try encoder.finish()).write(to: URL(fileURLWithPath: path))
    }

    static func frames(_ path: String) throws -> AnimatedImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try AnimationDecoders.frames(of: EncodedImage(bytes: bytes, sourceName: path)).readAll()
    }

    @Test("Every frame goes through the chain into an animated WebP with the source's durations and loop count")
    func everyFrame() async throws {
        let workspace = try ProcessCommandTests.Workspace()
        defer { workspace.remove() }
        try Self.animation(at: workspace.path("anim.webp"))
        try await ProcessCommandTests.run([workspace.path("anim.webp"), "-p", "downsample(32x32)", "-o", workspace.path("out.webp"), "--lossless"])
        let out = try Self.frames(workspace.path("out.webp"))
        #expect(out.frames.count == 5)
        #expect(out.canvasSize == PixelSize(width: 32, height: 24))
        #expect(out.loopCount == 3)
        #expect(out.frames.map(\.durationMilliseconds) == [40, 50, 60, 70, 80])
        // Each frame keeps its own colour (flat frames downsample to the same flat colour).
        for (index, frame) in out.frames.enumerated() {
            frame.bitmap.withUnsafeBytes { bytes in
                #expect(bytes[0] == UInt8(index * 50) && bytes[1] == 100 && bytes[2] == UInt8(250 - index * 50))
            }
        }
    }

    @Test("--first-frame-only, or an output format without animation, writes the first frame as a still image")
    func firstFrame() async throws {
        let workspace = try ProcessCommandTests.Workspace()
        defer { workspace.remove() }
        try Self.animation(at: workspace.path("anim.webp"))
        try await ProcessCommandTests.run([
            workspace.path("anim.webp"), "-p", "downsample(32x32)", "-o", workspace.path("still.webp"), "--first-frame-only",
        ])
        #expect(try Self.frames(workspace.path("still.webp")).frames.count == 1)
        try await ProcessCommandTests.run([workspace.path("anim.webp"), "-p", "downsample(32x32)", "-o", workspace.path("still.png")])
        let png = try workspace.decode("still.png")
        #expect(png.info.format == .png && png.bitmap.width == 32)
    }

    @Test("The frame mode is part of the result's cache key, always")
    func cacheKey() throws {
        let all = ImageRequest(source: SourceReference("a.gif"), chain: ProcessorChain(), output: OutputOptions(frames: .all))
        let first = ImageRequest(source: SourceReference("a.gif"), chain: ProcessorChain(), output: OutputOptions(frames: .first))
        #expect(all.outputKey.hasSuffix(";frames=all"))
        #expect(first.outputKey.hasSuffix(";frames=first"))
    }
}
