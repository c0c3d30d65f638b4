import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("GIF decoding")
struct GIFDecoderTests {
    static let red: PWGGIFBuilder.Color = (255, 0, 0)
    static let green: PWGGIFBuilder.Color = (0, 255, 0)
    static let blue: PWGGIFBuilder.Color = (0, 0, 255)

    private func decode(_ bytes: [UInt8], strict: Bool = true) throws(CodecError) -> DecodedImage {
        try GIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "test.gif"), options: DecodeOptions(limits: DecodeLimits(strict: strict)))
    }

    @Test(
        "Given a GIF made by ImageMagick, when decoded, then every pixel equals ImageMagick's own decode",
        arguments: [("still", true), ("transparent", false)])
    func decodesFixture(name: String, opaque: Bool) throws {
        let decoded = try GIFDecoder().decode(PWGTestKit.encoded("gif/\(name).gif"), options: DecodeOptions())
        let reference = try PWGTestKit.fixture("gif/\(name).rgba")
        #expect(decoded.bitmap.size == PixelSize(width: 23, height: 17))
        #expect(decoded.bitmap.isOpaque == opaque)
        #expect(decoded.info.hasAlpha == !opaque)
        #expect(decoded.info.frameCount == 1)
        let mismatch = PWGTestKit.firstMismatch(decoded.bitmap, straight: reference)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("Given an interlaced GIF, when decoded, then it equals the same image stored progressively")
    func decodesInterlaced() throws {
        let interlaced = try GIFDecoder().decode(PWGTestKit.encoded("gif/interlaced.gif"), options: DecodeOptions())
        let plain = try GIFDecoder().decode(PWGTestKit.encoded("gif/still.gif"), options: DecodeOptions())
        #expect(PWGTestKit.samePixels(interlaced.bitmap, plain.bitmap))
    }

    @Test("Given an interlaced frame of 11 rows, when decoded, then each row lands in its place")
    func interlacedRowOrder() throws {
        let colors: [PWGGIFBuilder.Color] = (0..<11).map { (UInt8($0 * 20), 0, 0) }
        var indices: [UInt8] = []
        for row in 0..<11 { indices += [UInt8(row), UInt8(row), UInt8(row)] }
        var gif = PWGGIFBuilder(width: 3, height: 11, globalColors: colors)
        gif.frame(x: 0, y: 0, width: 3, height: 11, indices: indices, interlaced: true)
        gif.trailer()
        let bitmap = try decode(gif.bytes).bitmap
        for y in 0..<11 {
            #expect(bitmap.premultipliedPixel(x: 1, y: y) == (UInt8(y * 20), 0, 0, 255), "row \(y)")
        }
    }

    @Test(
        "Given an animation whose first frame is smaller than the screen, when decoded, then the frame sits at its offset on a transparent canvas and the frames are counted"
    )
    func placesFirstFrame() throws {
        let decoded = try GIFDecoder().decode(PWGTestKit.encoded("gif/anim-offset-first.gif"), options: DecodeOptions())
        let bitmap = decoded.bitmap
        #expect(bitmap.size == PixelSize(width: 20, height: 16))
        #expect(decoded.info.frameCount == 2)
        #expect(decoded.info.isAnimated)
        #expect(!bitmap.isOpaque)
        #expect(bitmap.premultipliedPixel(x: 5, y: 4) == (0, 0, 255, 255))
        #expect(bitmap.premultipliedPixel(x: 12, y: 9) == (0, 0, 255, 255))
        #expect(bitmap.premultipliedPixel(x: 4, y: 4) == (0, 0, 0, 0))
        #expect(bitmap.premultipliedPixel(x: 13, y: 9) == (0, 0, 0, 0))
        #expect(bitmap.premultipliedPixel(x: 5, y: 10) == (0, 0, 0, 0))
    }

    @Test("Given a full-screen first frame of a three-frame animation, when decoded, then only the first frame is drawn")
    func firstFrameOnly() throws {
        let decoded = try GIFDecoder().decode(PWGTestKit.encoded("gif/anim3.gif"), options: DecodeOptions())
        #expect(decoded.info.frameCount == 3)
        #expect(decoded.bitmap.isOpaque)
        #expect(decoded.bitmap.premultipliedPixel(x: 6, y: 5) == (255, 0, 0, 255))
    }

    @Test("Given a frame that extends past the screen, when decoded, then it is clipped to the screen")
    func clipsFrames() throws {
        var gif = PWGGIFBuilder(width: 4, height: 3, globalColors: [Self.red, Self.green])
        gif.frame(x: 2, y: 1, width: 5, height: 4, indices: [UInt8](repeating: 1, count: 20))
        gif.trailer()
        let bitmap = try decode(gif.bytes).bitmap
        #expect(bitmap.size == PixelSize(width: 4, height: 3))
        #expect(bitmap.premultipliedPixel(x: 3, y: 2) == (0, 255, 0, 255))
        #expect(bitmap.premultipliedPixel(x: 2, y: 1) == (0, 255, 0, 255))
        #expect(bitmap.premultipliedPixel(x: 1, y: 1) == (0, 0, 0, 0))
        #expect(bitmap.premultipliedPixel(x: 3, y: 0) == (0, 0, 0, 0))
    }

    @Test("Given a local colour table and a transparent index, when decoded, then the local table wins and that index is transparent")
    func localTableAndTransparency() throws {
        var gif = PWGGIFBuilder(width: 3, height: 1, globalColors: [Self.red, Self.red, Self.red])
        gif.graphicsControl(transparentIndex: 1)
        gif.frame(x: 0, y: 0, width: 3, height: 1, indices: [0, 1, 2], localColors: [Self.green, Self.red, Self.blue])
        gif.trailer()
        let decoded = try decode(gif.bytes)
        #expect(decoded.bitmap.premultipliedPixel(x: 0, y: 0) == (0, 255, 0, 255))
        #expect(decoded.bitmap.premultipliedPixel(x: 1, y: 0) == (0, 0, 0, 0))
        #expect(decoded.bitmap.premultipliedPixel(x: 2, y: 0) == (0, 0, 255, 255))
        #expect(!decoded.bitmap.isOpaque)
        #expect(decoded.info.hasAlpha)
    }

    @Test("Given a frame with neither a local nor a global colour table, when decoded strictly or leniently, then it is corrupt")
    func missingColourTable() throws {
        var gif = PWGGIFBuilder(width: 2, height: 2)
        gif.frame(x: 0, y: 0, width: 2, height: 2, indices: [0, 0, 0, 0])
        gif.trailer()
        let expected = CodecError(.corrupt, source: "test.gif", "corrupt GIF: the first frame has no colour table (local or global)")
        #expect(throws: expected) { try decode(gif.bytes) }
        #expect(throws: expected) { try decode(gif.bytes, strict: false) }
    }

    @Test("Given a GIF without its trailer, when decoded strictly, then it is accepted")
    func acceptsMissingTrailer() throws {
        var gif = PWGGIFBuilder(width: 2, height: 1, globalColors: [Self.red, Self.blue])
        gif.frame(x: 0, y: 0, width: 2, height: 1, indices: [0, 1])
        let decoded = try decode(gif.bytes)
        #expect(decoded.bitmap.premultipliedPixel(x: 1, y: 0) == (0, 0, 255, 255))
    }

    @Test("Given a GIF, when its header is read, then screen, frame count and alpha are reported without allocating pixels")
    func readsInfoWithoutPixels() throws {
        let image = try PWGTestKit.encoded("gif/anim-offset-first.gif")
        var info: ImageInfo?
        let result = PWGTestKit.allocations { () throws(CodecError) in
            info = try GIFDecoder().readInfo(image, limits: DecodeLimits())
        }
        #expect(result.count == 0)
        #expect(info == ImageInfo(format: .gif, storedSize: PixelSize(width: 20, height: 16), frameCount: 2, hasAlpha: true))
        #expect(GIFDecoder().canDecode(image.bytes))
    }
}
