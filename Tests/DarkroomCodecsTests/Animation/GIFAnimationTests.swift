import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("GIF animation decoding")
struct GIFAnimationTests {
    typealias Kit = AnimationTestKit

    private func frames(_ bytes: [UInt8], limits: DecodeLimits = DecodeLimits()) throws(CodecError) -> (AnimationInfo, [AnimationFrame]) {
        let read = try Kit.readAll(bytes, name: "test.gif", limits: limits)
        return (read.info, read.animation.frames)
    }

    @Test("Given a GIF using every disposal method, when read, then the header gives the frame count, canvas and loop count")
    func header() throws {
        let (info, frames) = try frames(Kit.disposalGIF())
        #expect(info.format == .gif)
        #expect(info.canvasSize == PixelSize(width: 6, height: 4))
        #expect(info.frameCount == 5)
        #expect(frames.count == 5)
        #expect(frames.map(\.index) == [0, 1, 2, 3, 4])
        // NETSCAPE2.0 asks for 2 repeats after the first showing: 3 plays in all.
        #expect(info.loopCount == 3)
        #expect(info.hasAlpha)
        #expect(frames.allSatisfy { $0.bitmap.size == info.canvasSize })
        let fromHeader = try GIFDecoder().readAnimationInfo(Kit.encoded(Kit.disposalGIF(), "test.gif"), limits: DecodeLimits())
        #expect(fromHeader == info)
    }

    @Test("Given delays of 20, 0, 1 and 5 hundredths and a frame without a GCE, then durations follow browsers (≤ 10 ms is 100 ms)")
    func durations() throws {
        let (_, frames) = try frames(Kit.disposalGIF())
        #expect(frames.map(\.durationMilliseconds) == [200, 100, 100, 50, 100])
    }

    @Test("Given a full red first frame kept (disposal 1) and a green square over it, then frame 1 shows both and is opaque")
    func keepComposites() throws {
        let (_, frames) = try frames(Kit.disposalGIF())
        #expect(frames[0].bitmap.isOpaque)
        #expect(frames[0].bitmap.premultipliedPixel(x: 1, y: 1) == Kit.red)
        let second = frames[1].bitmap
        #expect(second.isOpaque)
        #expect(second.premultipliedPixel(x: 1, y: 1) == Kit.green)
        #expect(second.premultipliedPixel(x: 2, y: 2) == Kit.green)
        #expect(second.premultipliedPixel(x: 3, y: 2) == Kit.red)
        #expect(second.premultipliedPixel(x: 0, y: 0) == Kit.red)
    }

    @Test("Given disposal 2 on the green square, then in the next frame its area is transparent, not the background colour")
    func restoreToBackground() throws {
        let (_, frames) = try frames(Kit.disposalGIF())
        let third = frames[2].bitmap
        #expect(!third.isOpaque)
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
            #expect(third.premultipliedPixel(x: x, y: y) == Kit.clear, "(\(x), \(y))")
        }
        #expect(third.premultipliedPixel(x: 3, y: 1) == Kit.red)
        // The transparent index lets the red below show through; the other three are blue.
        #expect(third.premultipliedPixel(x: 4, y: 2) == Kit.red)
        #expect(third.premultipliedPixel(x: 5, y: 2) == Kit.blue)
        #expect(third.premultipliedPixel(x: 4, y: 3) == Kit.blue)
        #expect(third.premultipliedPixel(x: 5, y: 3) == Kit.blue)
    }

    @Test("Given disposal 3 on the blue square, then the next frame shows the canvas from before it, with the new frame clipped to the screen")
    func restoreToPrevious() throws {
        let (_, frames) = try frames(Kit.disposalGIF())
        let fourth = frames[3].bitmap
        #expect(fourth.premultipliedPixel(x: 5, y: 2) == Kit.red)
        #expect(fourth.premultipliedPixel(x: 4, y: 2) == Kit.red)
        // The hole left by disposal 2 was there before the blue frame, so it is still there.
        #expect(fourth.premultipliedPixel(x: 1, y: 1) == Kit.clear)
        // The white frame is 4×2 at (4, 3): only (4, 3) and (5, 3) are on the screen.
        #expect(fourth.premultipliedPixel(x: 4, y: 3) == Kit.white)
        #expect(fourth.premultipliedPixel(x: 5, y: 3) == Kit.white)
        #expect(fourth.premultipliedPixel(x: 3, y: 3) == Kit.red)
    }

    @Test("Given disposal 0 on the white frame and a last frame with a local colour table, then the white stays and the local colour is used")
    func unspecifiedDisposalKeeps() throws {
        let (_, frames) = try frames(Kit.disposalGIF())
        let fifth = frames[4].bitmap
        #expect(fifth.premultipliedPixel(x: 0, y: 0) == Kit.black)
        #expect(fifth.premultipliedPixel(x: 5, y: 3) == Kit.white)
        #expect(fifth.premultipliedPixel(x: 1, y: 1) == Kit.clear)
        #expect(fifth.premultipliedPixel(x: 5, y: 2) == Kit.red)
    }

    @Test("Given a frame handed out and kept, when the next frames are read, then the kept frame does not change")
    func framesAreIndependent() throws {
        var reader = try GIFDecoder().animationFrames(of: Kit.encoded(Kit.disposalGIF(), "test.gif"), options: DecodeOptions())
        let first = try reader.next()
        let second = try reader.next()
        _ = try reader.next()
        let kept = try #require(first)
        let next = try #require(second)
        #expect(kept.bitmap.premultipliedPixel(x: 1, y: 1) == Kit.red)
        #expect(next.bitmap.premultipliedPixel(x: 1, y: 1) == Kit.green)
        let read = reader.framesRead
        #expect(read == 3)
        _ = try reader.next()
        _ = try reader.next()
        let afterLast = try reader.next()
        let again = try reader.next()
        #expect(afterLast == nil)
        #expect(again == nil)
    }

    @Test("Given a first frame with disposal 3, then the next frame starts from the empty canvas")
    func firstFrameRestorePrevious() throws {
        var gif = PWGGIFBuilder(width: 4, height: 2, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.graphicsControl(transparentIndex: nil, disposal: 3, delay: 10)
        gif.frame(x: 0, y: 0, width: 4, height: 2, indices: [UInt8](repeating: 0, count: 8))
        gif.graphicsControl(transparentIndex: nil, disposal: 1, delay: 10)
        gif.frame(x: 3, y: 1, width: 1, height: 1, indices: [1])
        gif.trailer()
        let (info, frames) = try frames(gif.bytes)
        #expect(info.loopCount == 1, "no NETSCAPE2.0 extension: plays once")
        #expect(frames[0].bitmap.isOpaque)
        #expect(frames[1].bitmap.premultipliedPixel(x: 0, y: 0) == Kit.clear)
        #expect(frames[1].bitmap.premultipliedPixel(x: 3, y: 1) == Kit.blue)
        #expect(!frames[1].bitmap.isOpaque)
    }

    @Test("Opacity: a whole-screen frame without a transparent index makes the canvas opaque; with one, what shows through decides")
    func opacityOfWholeScreenFrames() throws {
        var gif = PWGGIFBuilder(width: 3, height: 2, globalColors: [(255, 0, 0), (0, 0, 255), (0, 255, 0)])
        // 1: a corner only, over the transparent canvas.
        gif.graphicsControl(transparentIndex: nil, disposal: 1, delay: 10)
        gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [0])
        // 2: the whole screen, no transparent index: opaque, whatever was under it.
        gif.graphicsControl(transparentIndex: nil, disposal: 1, delay: 10)
        gif.frame(x: 0, y: 0, width: 3, height: 2, indices: [1, 1, 1, 1, 1, 1])
        // 3: after a background restore, the whole screen with index 2 transparent in one pixel:
        // the cleared canvas shows through it.
        gif.graphicsControl(transparentIndex: nil, disposal: 2, delay: 10)
        gif.frame(x: 0, y: 0, width: 3, height: 2, indices: [0, 0, 0, 0, 0, 0])
        gif.graphicsControl(transparentIndex: 2, disposal: 1, delay: 10)
        gif.frame(x: 0, y: 0, width: 3, height: 2, indices: [0, 2, 0, 0, 0, 0])
        // 5: the whole screen again, with a transparent index it does not use: still scanned, opaque
        // only where what showed through was (pixel 1 is still clear).
        gif.graphicsControl(transparentIndex: 2, disposal: 1, delay: 10)
        gif.frame(x: 0, y: 0, width: 3, height: 2, indices: [1, 2, 1, 1, 1, 1])
        gif.trailer()
        let (_, frames) = try frames(gif.bytes)
        #expect(frames.map(\.bitmap.isOpaque) == [false, true, true, false, false])
        #expect(frames[3].bitmap.premultipliedPixel(x: 1, y: 0) == Kit.clear)
        #expect(frames[4].bitmap.premultipliedPixel(x: 0, y: 0) == Kit.blue)
    }

    @Test("Given NETSCAPE2.0 with 0 repeats, then the animation loops forever")
    func loopsForever() throws {
        var gif = PWGGIFBuilder(width: 2, height: 2, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.netscapeLoop(0)
        gif.frame(x: 0, y: 0, width: 2, height: 2, indices: [0, 0, 0, 0])
        gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.trailer()
        #expect(try frames(gif.bytes).0.loopCount == 0)
    }

    @Test("Given a still GIF, when read as an animation, then its one frame equals the still decode")
    func stillGIF() throws {
        let bytes = try PWGTestKit.fixture("gif/transparent.gif")
        let (info, frames) = try frames(bytes)
        let still = try GIFDecoder().decode(Kit.encoded(bytes, "t.gif"), options: DecodeOptions())
        #expect(info.frameCount == 1)
        #expect(frames.count == 1)
        #expect(PWGTestKit.samePixels(frames[0].bitmap, still.bitmap))
    }

    @Test("Given the three-frame fixture made by ImageMagick, then each frame is the composite of the frames so far")
    func imageMagickFixture() throws {
        let (info, frames) = try frames(PWGTestKit.fixture("gif/anim3.gif"))
        #expect(info.frameCount == 3)
        #expect(frames.map(\.durationMilliseconds) == [100, 100, 100])
        #expect(frames[1].bitmap.premultipliedPixel(x: 6, y: 5) == Kit.blue)
        #expect(frames[1].bitmap.premultipliedPixel(x: 0, y: 0) == Kit.red)
        // ImageMagick's "green" is the CSS one, #008000.
        #expect(frames[2].bitmap.premultipliedPixel(x: 6, y: 5) == (0, 128, 0, 255))
    }
}
