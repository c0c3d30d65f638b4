import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("WebP animation decoding")
struct WebPAnimationTests {
    typealias Kit = AnimationTestKit

    @Test("Given the webpmux fixture (8×6 blue at (4, 6), then red, then half-transparent green), when read, then frames, durations and loop count match")
    func fixture() throws {
        let read = try Kit.readAll(PWGTestKit.fixture("webp/anim.webp"), name: "anim.webp")
        #expect(read.info.format == .webp)
        #expect(read.info.canvasSize == PixelSize(width: 20, height: 16))
        #expect(read.info.frameCount == 3)
        #expect(read.info.loopCount == 0)
        let frames = read.animation.frames
        #expect(frames.count == 3)
        #expect(frames.map(\.durationMilliseconds) == [100, 100, 100])
        #expect(!frames[0].bitmap.isOpaque)
        #expect(frames[0].bitmap.premultipliedPixel(x: 4, y: 6) == Kit.blue)
        #expect(frames[0].bitmap.premultipliedPixel(x: 11, y: 11) == Kit.blue)
        #expect(frames[0].bitmap.premultipliedPixel(x: 3, y: 6) == Kit.clear)
        #expect(frames[0].bitmap.premultipliedPixel(x: 12, y: 11) == Kit.clear)
        #expect(frames[1].bitmap.isOpaque)
        #expect(frames[1].bitmap.premultipliedPixel(x: 0, y: 0) == Kit.red)
        // Half-transparent green blended over the red: about half of each, fully opaque.
        let blended = frames[2].bitmap.premultipliedPixel(x: 10, y: 8)
        #expect(blended.a == 255)
        #expect(abs(Int(blended.r) - 127) <= 2 && abs(Int(blended.g) - 128) <= 2 && blended.b == 0, "\(blended)")
    }

    @Test("Given a still WebP, when read as an animation, then its one frame equals the still decode")
    func stillWebP() throws {
        let bytes = try PWGTestKit.fixture("webp/lossless-alpha.webp")
        let read = try Kit.readAll(bytes, name: "still.webp")
        let still = try WebPDecoder().decode(Kit.encoded(bytes, "still.webp"), options: DecodeOptions())
        #expect(read.info.frameCount == 1)
        #expect(read.info.loopCount == 1)
        #expect(read.animation.frames.count == 1)
        #expect(PWGTestKit.samePixels(read.animation.frames[0].bitmap, still.bitmap))
    }

    @Test("Given frames with alpha encoded losslessly, when decoded, then count, durations, loop count and pixels survive")
    func losslessRoundTrip() throws {
        let size = PixelSize(width: 12, height: 10)
        let durations = [40, 80, 120, 70]
        var encoder = try AnimatedWebPEncoder(canvasSize: size, loopCount: 3, options: EncodeOptions(lossless: true))
        var originals: [Bitmap] = []
        for (seed, duration) in durations.enumerated() {
            let bitmap = try Kit.movingSquare(width: size.width, height: size.height, seed: seed)
            originals.append(bitmap)
            try encoder.add(AnimationFrame(bitmap: bitmap, durationMilliseconds: duration))
        }
        let bytes = try encoder.finish()
        #expect(PWGContainers.webpChunks(bytes).contains("ANIM"))
        let read = try Kit.readAll(bytes, name: "out.webp")
        #expect(read.info.frameCount == 4)
        #expect(read.info.loopCount == 3)
        #expect(read.info.hasAlpha)
        #expect(read.animation.frames.map(\.durationMilliseconds) == durations)
        for (original, frame) in zip(originals, read.animation.frames) {
            let difference = Kit.difference(original, frame.bitmap)
            // Lossless: alpha is exact; colours differ only by libwebp's premultiply rounding.
            #expect(difference.alphaEqual)
            #expect(difference.worstColor <= 1)
            #expect(!frame.bitmap.isOpaque)
        }
    }

    @Test("Given opaque frames encoded losslessly, when decoded, then every pixel is identical")
    func losslessOpaqueExact() throws {
        let size = PixelSize(width: 16, height: 12)
        var frames: [AnimationFrame] = []
        for n in 0..<3 {
            var bitmap = try PWGTestKit.smoothImage(width: size.width, height: size.height)
            bitmap.withUnsafeMutableBytes { bytes in
                // A different opaque mark per frame so libwebp keeps every frame.
                let i = (n * 3) * 4
                bytes[i] = 0
                bytes[i + 1] = 0
                bytes[i + 2] = 0
            }
            frames.append(AnimationFrame(bitmap: bitmap, durationMilliseconds: 30 * (n + 1)))
        }
        let bytes = try WebPEncoder().encode(AnimatedImage(canvasSize: size, loopCount: 0, frames: frames), options: EncodeOptions(lossless: true))
        let read = try Kit.readAll(bytes, name: "out.webp")
        #expect(read.info.loopCount == 0)
        #expect(read.animation.frames.map(\.durationMilliseconds) == [30, 60, 90])
        for (original, frame) in zip(frames, read.animation.frames) {
            #expect(frame.bitmap.isOpaque)
            #expect(PWGTestKit.samePixels(original.bitmap, frame.bitmap))
        }
    }

    @Test("Given frames encoded lossy at quality 90, when decoded, then timing survives and pixels stay close")
    func lossyRoundTrip() throws {
        let size = PixelSize(width: 32, height: 24)
        var encoder = try AnimatedWebPEncoder(canvasSize: size, loopCount: 7, options: EncodeOptions(quality: 90))
        var originals: [Bitmap] = []
        for seed in 0..<3 {
            let bitmap = try Kit.smoothTranslucent(width: size.width, height: size.height, seed: seed)
            originals.append(bitmap)
            try encoder.add(bitmap, durationMilliseconds: 100)
        }
        #expect(encoder.frameCount == 3)
        let bytes = try encoder.finish()
        let read = try Kit.readAll(bytes, name: "out.webp")
        #expect(read.info.loopCount == 7)
        #expect(read.animation.frames.map(\.durationMilliseconds) == [100, 100, 100])
        for (original, frame) in zip(originals, read.animation.frames) {
            #expect(PWGTestKit.psnr(original, frame.bitmap) >= 32)
        }
    }

    @Test("Given a GIF read frame by frame into the encoder, when the WebP is decoded, then it equals the GIF's frames")
    func gifToWebPStreaming() throws {
        var reader = try GIFDecoder().animationFrames(of: Kit.encoded(Kit.disposalGIF(), "in.gif"), options: DecodeOptions())
        let info = reader.info
        var encoder = try AnimatedWebPEncoder(canvasSize: info.canvasSize, loopCount: info.loopCount, options: EncodeOptions(lossless: true))
        var gifFrames: [AnimationFrame] = []
        while let frame = try reader.next() {
            try encoder.add(frame)
            gifFrames.append(frame)
        }
        let read = try Kit.readAll(encoder.finish(), name: "out.webp")
        #expect(read.info.loopCount == 3)
        #expect(read.animation.frames.count == gifFrames.count)
        #expect(read.animation.frames.map(\.durationMilliseconds) == gifFrames.map(\.durationMilliseconds))
        for (gif, webp) in zip(gifFrames, read.animation.frames) {
            // GIF pixels are opaque or fully transparent: lossless WebP keeps them exactly.
            #expect(PWGTestKit.samePixels(gif.bitmap, webp.bitmap), "frame \(gif.index)")
        }
    }

    @Test("Given frames the encoder cannot store, then it refuses with a message saying what to change")
    func encoderRefusals() throws {
        let size = PixelSize(width: 4, height: 4)
        var encoder = try AnimatedWebPEncoder(canvasSize: size)
        let small = try Bitmap(width: 3, height: 4)
        do {
            try encoder.add(small, durationMilliseconds: 100)
            Issue.record("a frame smaller than the canvas was accepted")
        } catch {
            #expect(error.message.contains("give every frame the canvas size"))
        }
        let right = try Bitmap(width: 4, height: 4)
        do {
            try encoder.add(right, durationMilliseconds: -1)
            Issue.record("a negative duration was accepted")
        } catch {
            #expect(error.code == .encodeFailed)
            #expect(error.message.contains("0…16777215 ms"))
        }
        do {
            _ = try AnimatedWebPEncoder(canvasSize: size, loopCount: 70_000)
            Issue.record("a loop count over 65535 was accepted")
        } catch {
            #expect(error.code == .encodeFailed)
        }
        let empty = try AnimatedWebPEncoder(canvasSize: size)
        do {
            _ = try empty.finish()
            Issue.record("an animation without frames was written")
        } catch {
            #expect(error.message.contains("at least one frame"))
        }
    }
}
