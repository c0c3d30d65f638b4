import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("AVIF limits, checked from the header before decoding")
struct AVIFLimitTests {
    @Test("An absurd ispe is refused as too large, by readInfo and by decode")
    func absurdSize() throws {
        let bytes = try AVIFTestKit.patchingISPE(AVIFTestKit.fixture("rgb8.avif"), width: 1_000_000, height: 1_000_000)
        let image = EncodedImage(bytes: bytes, sourceName: "huge.avif")
        #expect(throws: CodecError(.tooLarge, source: "huge.avif", "declares 1000000x1000000, over the 32768 px per side input limit (a fixed limit)")) {
            try AVIFDecoder().readInfo(image, limits: DecodeLimits())
        }
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().decode(image, options: DecodeOptions()) } == .tooLarge)
    }

    @Test("Over the pixel limit, and an empty ispe, are refused with their codes")
    func pixelLimitAndEmpty() throws {
        let image = try AVIFTestKit.image("rgb8.avif")
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(maxPixels: 1_000))) } == .tooLarge)
        let empty = EncodedImage(bytes: try AVIFTestKit.patchingISPE(image.bytes, width: 0, height: 43), sourceName: "empty.avif")
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().readInfo(empty, limits: DecodeLimits()) } == .invalidDimensions)
    }

    @Test("A sequence declaring 10,000 frames is refused before libavif builds its sample table")
    func frameBomb() throws {
        let bytes = AVIFTestKit.patchingSampleCount(try AVIFTestKit.fixture("sequence3.avif"), to: 10_000)
        let image = EncodedImage(bytes: bytes, sourceName: "bomb.avif")
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().decode(image, options: DecodeOptions()) } == .tooManyFrames)
        let few = DecodeLimits(maxFrames: 2)
        #expect(AVIFTestKit.code { _ = try AVIFTestKit.decode("sequence3.avif", limits: few) } == .tooManyFrames)
    }

    @Test("Truncated and garbage AVIFs end in coded errors")
    func damaged() throws {
        let bytes = try AVIFTestKit.fixture("rgb8.avif")
        let truncated = EncodedImage(bytes: Array(bytes.prefix(bytes.count - 400)), sourceName: "cut.avif")
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().decode(truncated, options: DecodeOptions()) } == .truncated)
        let headerOnly = EncodedImage(bytes: Array(bytes.prefix(120)), sourceName: "head.avif")
        #expect(AVIFTestKit.code { _ = try AVIFDecoder().readInfo(headerOnly, limits: DecodeLimits()) } == .truncated)
        var garbage = bytes
        for index in stride(from: bytes.count - 1200, to: bytes.count, by: 7) { garbage[index] ^= 0x5A }
        let damaged = EncodedImage(bytes: garbage, sourceName: "bad.avif")
        // dav1d may or may not notice flipped bits in the bitstream; it never crashes.
        let code = AVIFTestKit.code { _ = try AVIFDecoder().decode(damaged, options: DecodeOptions()) }
        #expect(code == nil || code == .truncated || code == .corrupt)
    }
}
