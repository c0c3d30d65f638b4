import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("Hostile GIF input")
struct GIFHostileTests {
    private static let lenient = DecodeOptions(limits: DecodeLimits(strict: false))

    private func refusal(_ bytes: [UInt8], _ options: DecodeOptions = DecodeOptions()) -> (code: CodecError.Code?, allocations: Int) {
        let result = PWGTestKit.allocations { () throws(CodecError) in
            _ = try GIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "hostile.gif"), options: options)
        }
        return (result.error?.code, result.count)
    }

    private func readInfoError(_ bytes: [UInt8]) -> CodecError.Code? {
        do {
            _ = try GIFDecoder().readInfo(EncodedImage(bytes: bytes, sourceName: "hostile.gif"), limits: DecodeLimits())
            return nil
        } catch {
            return error.code
        }
    }

    @Test("Given a GIF whose logical screen is 65535×65535, when read or decoded, then it is too large and nothing is allocated")
    func hugeScreen() {
        var gif = PWGGIFBuilder(width: 65_535, height: 65_535, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [1])
        gif.trailer()
        #expect(refusal(gif.bytes) == (.tooLarge, 0))
        #expect(refusal(gif.bytes, Self.lenient) == (.tooLarge, 0))
        #expect(readInfoError(gif.bytes) == .tooLarge)
    }

    @Test("Given a small screen with a 65535×65535 first frame, when decoded, then the frame is too large and nothing is allocated")
    func hugeFrame() {
        var gif = PWGGIFBuilder(width: 10, height: 10, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [1])
        // Patch the frame's width and height fields (after 13 header bytes, 6 colour bytes, 1 separator, 4 offset bytes).
        var bytes = gif.bytes
        bytes.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(refusal(bytes) == (.tooLarge, 0))
    }

    @Test("Given a GIF with 20,000 one-pixel frames, when read or decoded, then it has too many frames and nothing is allocated")
    func twentyThousandFrames() {
        var gif = PWGGIFBuilder(width: 1, height: 1, globalColors: [(0, 0, 0), (255, 255, 255)])
        for i in 0..<20_000 {
            gif.graphicsControl(transparentIndex: nil)
            gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [UInt8(i & 1)])
        }
        gif.trailer()
        #expect(gif.bytes.count < 600_000)
        #expect(refusal(gif.bytes) == (.tooManyFrames, 0))
        #expect(refusal(gif.bytes, Self.lenient) == (.tooManyFrames, 0))
        #expect(readInfoError(gif.bytes) == .tooManyFrames)
        // Under a limit that allows them, the same file decodes its first frame and counts all.
        let generous = DecodeOptions(limits: DecodeLimits(maxFrames: 20_000))
        let decoded = try? GIFDecoder().decode(EncodedImage(bytes: gif.bytes, sourceName: "many.gif"), options: generous)
        #expect(decoded?.info.frameCount == 20_000)
    }

    @Test("Given a GIF cut in the middle of its first frame, when decoded strictly it is truncated, and leniently the rows before the cut are kept")
    func truncatedMidFrame() throws {
        let gif = try PWGTestKit.fixture("gif/still.gif")
        // The frame's LZW data starts at 820 in sub-blocks of 254 bytes; cut inside the second.
        let cut = Array(gif.prefix(1_200))
        #expect(refusal(cut).code == .truncated)
        let lenient = try GIFDecoder().decode(EncodedImage(bytes: cut, sourceName: "cut.gif"), options: Self.lenient).bitmap
        let full = try GIFDecoder().decode(PWGTestKit.encoded("gif/still.gif"), options: DecodeOptions()).bitmap
        #expect(!lenient.isOpaque)
        #expect(lenient.premultipliedPixel(x: 5, y: 0) == full.premultipliedPixel(x: 5, y: 0))
        #expect(lenient.premultipliedPixel(x: 5, y: 16) == (0, 0, 0, 0))
    }

    @Test("Given every prefix of a GIF that ends inside a record, when decoded strictly, then each is truncated, never a crash")
    func everyPrefixIsTruncated() throws {
        let gif = try PWGTestKit.fixture("gif/still.gif")
        for cut in 6..<(gif.count - 1) {
            #expect(refusal(Array(gif.prefix(cut))).code == .truncated, "cut at \(cut) of \(gif.count)")
        }
    }

    @Test("Given an animation cut inside its second frame, when decoded strictly it is truncated, and leniently the first frame is kept")
    func truncatedLaterFrame() throws {
        var gif = PWGGIFBuilder(width: 4, height: 4, globalColors: [(255, 0, 0), (0, 0, 255)])
        gif.frame(x: 0, y: 0, width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16))
        gif.frame(x: 0, y: 0, width: 4, height: 4, indices: [UInt8](repeating: 0, count: 16))
        let cut = Array(gif.bytes.dropLast(3))
        #expect(refusal(cut).code == .truncated)
        let lenient = try GIFDecoder().decode(EncodedImage(bytes: cut, sourceName: "cut.gif"), options: Self.lenient)
        #expect(lenient.bitmap.premultipliedPixel(x: 3, y: 3) == (0, 0, 255, 255))
        #expect(lenient.info.frameCount == 2)
    }

    @Test("Given random bytes after a valid GIF header, when decoded, then it fails without allocating")
    func randomAfterHeader() {
        var state: UInt64 = 0xF00D
        // A 16×16 screen with no global table, then noise.
        var bytes = Array("GIF89a".utf8) + [16, 0, 16, 0, 0, 0, 0]
        for _ in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        #expect(refusal(bytes) == (.corrupt, 0))
    }
}
