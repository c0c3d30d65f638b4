import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("Animation limits and hostile input")
struct AnimationLimitTests {
    typealias Kit = AnimationTestKit

    /// Opens a reader (and reads nothing) under `limits`, counting pixel allocations.
    private func open(_ bytes: [UInt8], name: String, limits: DecodeLimits) -> (count: Int, error: CodecError?) {
        PWGTestKit.allocations { () throws(CodecError) in
            _ = try AnimationDecoders.frames(of: Kit.encoded(bytes, name), options: DecodeOptions(limits: limits))
        }
    }

    @Test("Given a GIF of 2000 undecodable frames, when opened, then it is refused for its frame count with nothing decoded")
    func gifTooManyFrames() throws {
        let bytes = Kit.undecodableFrames(width: 2, height: 2, count: 2000)
        let refused = open(bytes, name: "many.gif", limits: DecodeLimits())
        #expect(refused.error?.code == .tooManyFrames)
        #expect(refused.error?.message.contains("1000 frames") == true)
        #expect(refused.count == 0)
        // The same file under a higher limit opens, and its first frame fails to decode: so the
        // refusal above came before any frame was decoded.
        var reader = try AnimationDecoders.frames(of: Kit.encoded(bytes, "many.gif"), options: DecodeOptions(limits: DecodeLimits(maxFrames: 3000)))
        #expect(reader.info.frameCount == 2000)
        do {
            _ = try reader.next()
            Issue.record("undecodable frame data decoded")
        } catch {
            #expect(error.code == .corrupt)
        }
    }

    @Test("Given a GIF whose frames × screen exceed maxAnimationPixels, then it is refused naming the flag, with nothing decoded")
    func gifAnimationPixels() throws {
        // 10 frames of a 10×10 screen: 1000 pixels in all.
        let bytes = Kit.undecodableFrames(width: 10, height: 10, count: 10)
        let refused = open(bytes, name: "big.gif", limits: DecodeLimits(maxAnimationPixels: 999))
        #expect(refused.error?.code == .tooLarge)
        #expect(refused.error?.message.contains("--max-animation-pixels") == true)
        #expect(refused.error?.message.contains("10 frames of 10x10 = 1000 px") == true)
        #expect(refused.count == 0)
        let info = try GIFDecoder().readAnimationInfo(Kit.encoded(bytes, "big.gif"), limits: DecodeLimits(maxAnimationPixels: 1000))
        #expect(info.frameCount == 10)
    }

    @Test("Given a GIF frame larger than the pixel limit but clipped by a small screen, then it is refused before decoding")
    func gifHugeFrame() {
        var gif = PWGGIFBuilder(width: 4, height: 4, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.frame(x: 0, y: 0, width: 4, height: 4, indices: [UInt8](repeating: 0, count: 16))
        gif.append([0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 8, 2, 0xFF, 0xFF, 0])
        gif.trailer()
        let refused = open(gif.bytes, name: "huge-frame.gif", limits: DecodeLimits())
        #expect(refused.error?.code == .tooLarge)
        #expect(refused.count == 0)
    }

    @Test("Given GIF frames much larger than their small screen, then their own areas count against maxAnimationPixels")
    func gifOversizedFramesCount() {
        // 3 frames of 100×100 on a 10×10 screen: 300 px of canvas, but 30,000 px to decode.
        var gif = PWGGIFBuilder(width: 10, height: 10, globalColors: [(255, 0, 0), (0, 0, 255)])
        for _ in 0..<3 {
            gif.append([0x2C, 0, 0, 0, 0, 100, 0, 100, 0, 0, 8, 2, 0xFF, 0xFF, 0])
        }
        gif.trailer()
        let refused = open(gif.bytes, name: "oversized.gif", limits: DecodeLimits(maxAnimationPixels: 20_000))
        #expect(refused.error?.code == .tooLarge)
        #expect(refused.error?.message.contains("--max-animation-pixels") == true)
        #expect(refused.count == 0)
    }

    @Test("Given a WebP whose frames × canvas exceed a small maxAnimationPixels, then it is refused with nothing decoded")
    func webpAnimationPixels() throws {
        var bytes = try PWGTestKit.fixture("webp/anim.webp")
        // 3 frames of 20×16 = 960 pixels.
        let refused = open(bytes, name: "anim.webp", limits: DecodeLimits(maxAnimationPixels: 959))
        #expect(refused.error?.code == .tooLarge)
        #expect(refused.error?.message.contains("3 frames of 20x16 = 960 px") == true)
        #expect(refused.error?.message.contains("--max-animation-pixels") == true)
        #expect(refused.count == 0)
        // With the frames' pixel data destroyed the refusal is the same: nothing was decoded.
        // Each frame's VP8L payload after its 5-byte header (signature and size) is inverted.
        var damaged = 0
        for start in 0..<(bytes.count - 8) where Array(bytes[start..<(start + 4)]) == Array("VP8L".utf8) {
            let size = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]) << 16
            for i in (start + 8 + 5)..<min(bytes.count, start + 8 + size) {
                bytes[i] ^= 0xFF
                damaged += 1
            }
        }
        #expect(damaged > 0)
        do {
            _ = try AnimationDecoders.frames(of: Kit.encoded(bytes, "anim.webp")).readAll()
            Issue.record("destroyed frame data decoded")
        } catch {
            #expect(error.code == .corrupt)
        }
        #expect(open(bytes, name: "anim.webp", limits: DecodeLimits(maxAnimationPixels: 959)).error?.code == .tooLarge)
        let fits = try WebPDecoder().readAnimationInfo(PWGTestKit.encoded("webp/anim.webp"), limits: DecodeLimits(maxAnimationPixels: 960))
        #expect(fits.frameCount == 3)
    }

    @Test("Given a WebP animation of 3 frames and a limit of 2, then it is refused for its frame count")
    func webpTooManyFrames() throws {
        let refused = open(try PWGTestKit.fixture("webp/anim.webp"), name: "anim.webp", limits: DecodeLimits(maxFrames: 2))
        #expect(refused.error?.code == .tooManyFrames)
        #expect(refused.count == 0)
    }

    @Test("Given every prefix of the animated WebP, then each is refused as truncated or corrupt, in both modes, never a crash")
    func webpPrefixes() throws {
        let webp = try PWGTestKit.fixture("webp/anim.webp")
        for strict in [true, false] {
            for cut in 0..<webp.count {
                let result = open(Array(webp.prefix(cut)), name: "cut.webp", limits: DecodeLimits(strict: strict))
                let code = result.error?.code
                #expect(code == .truncated || code == .corrupt || code == .empty || code == .unknownFormat, "cut at \(cut): \(String(describing: code))")
            }
        }
    }

    @Test("Given the disposal GIF cut inside its third frame, then strict mode refuses it and lenient mode keeps the frames before")
    func gifCutShort() throws {
        let bytes = Kit.disposalGIF()
        // The third frame's descriptor starts after the second frame; cut a few bytes into its data.
        var probe = PWGGIFBuilder(width: 6, height: 4, globalColors: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (255, 0, 255)])
        probe.netscapeLoop(2)
        probe.graphicsControl(transparentIndex: nil, disposal: 1, delay: 20)
        probe.frame(x: 0, y: 0, width: 6, height: 4, indices: [UInt8](repeating: 0, count: 24))
        probe.graphicsControl(transparentIndex: nil, disposal: 2, delay: 0)
        probe.frame(x: 1, y: 1, width: 2, height: 2, indices: [1, 1, 1, 1])
        let cut = Array(bytes.prefix(probe.bytes.count + 8 + 10 + 3))
        #expect(open(cut, name: "cut.gif", limits: DecodeLimits()).error?.code == .truncated)
        let lenient = try Kit.readAll(cut, name: "cut.gif", limits: DecodeLimits(strict: false))
        #expect(lenient.animation.frames.count == 2)
        #expect(lenient.animation.frames[1].bitmap.premultipliedPixel(x: 1, y: 1) == Kit.green)
    }

    @Test("Given damaged copies of an animated GIF and WebP, when read in both modes, then each ends in frames or a CodecError")
    func byteFlips() throws {
        let sources: [(String, [UInt8])] = [
            ("flip.gif", Kit.disposalGIF()), ("flip.webp", try PWGTestKit.fixture("webp/anim.webp")),
        ]
        var random = Kit.SeededBytes(seed: 11)
        for (name, original) in sources {
            for round in 0..<300 {
                var bytes = original
                for _ in 0..<(1 + random.next(below: 4)) {
                    bytes[random.next(below: bytes.count)] = UInt8(random.next(below: 256))
                }
                for strict in [true, false] {
                    do {
                        let read = try Kit.readAll(bytes, name: name, limits: DecodeLimits(strict: strict))
                        #expect(read.animation.frames.allSatisfy { $0.bitmap.size == read.info.canvasSize }, "\(name) round \(round)")
                    } catch {
                        #expect(!error.message.isEmpty)
                    }
                }
            }
        }
    }

    @Test("Given bytes that are neither GIF nor WebP, or none, then the animation entry point says so")
    func unknownFormats() throws {
        let png = try PWGTestKit.fixture("png/rgba8.png")
        #expect(open(png, name: "x.png", limits: DecodeLimits()).error?.code == .unknownFormat)
        #expect(open([], name: "x", limits: DecodeLimits()).error?.code == .empty)
    }
}
