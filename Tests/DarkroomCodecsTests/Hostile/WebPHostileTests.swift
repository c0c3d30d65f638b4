import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("Hostile WebP input")
struct WebPHostileTests {
    private static let lenient = DecodeOptions(limits: DecodeLimits(strict: false))

    private func refusal(_ bytes: [UInt8], _ options: DecodeOptions = DecodeOptions()) -> (code: CodecError.Code?, allocations: Int) {
        let result = PWGTestKit.allocations { () throws(CodecError) in
            _ = try WebPDecoder().decode(EncodedImage(bytes: bytes, sourceName: "hostile.webp"), options: options)
        }
        return (result.error?.code, result.count)
    }

    private static func littleEndian(_ v: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8((v >> (8 * $0)) & 0xFF) }
    }

    private static func chunk(_ fourCC: String, _ body: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + littleEndian(body.count, bytes: 4) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + littleEndian(chunks.count + 4, bytes: 4) + Array("WEBP".utf8) + chunks
    }

    @Test(
        "Given every prefix of a lossy and a lossless WebP, when decoded strictly, then each is truncated, never a crash",
        arguments: ["lossy", "lossless-alpha"])
    func everyPrefixIsTruncated(name: String) throws {
        let webp = try PWGTestKit.fixture("webp/\(name).webp")
        for cut in 12..<webp.count {
            #expect(refusal(Array(webp.prefix(cut))).code == .truncated, "cut at \(cut) of \(webp.count)")
        }
    }

    @Test("Given a RIFF size larger than the file, when decoded strictly it is truncated, and leniently the complete image inside decodes")
    func riffSizeTooLarge() throws {
        var webp = try PWGTestKit.fixture("webp/lossy.webp")
        let declared = webp.count - 8 + 1000
        webp.replaceSubrange(4..<8, with: Self.littleEndian(declared, bytes: 4))
        #expect(refusal(webp).code == .truncated)
        let lenient = try WebPDecoder().decode(EncodedImage(bytes: webp, sourceName: "lie.webp"), options: Self.lenient)
        let clean = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy.webp"), options: DecodeOptions())
        #expect(PWGTestKit.samePixels(lenient.bitmap, clean.bitmap))
    }

    @Test("Given a RIFF size smaller than the image chunk inside it, when decoded, then the container is corrupt and nothing is allocated")
    func riffSizeTooSmall() throws {
        var webp = try PWGTestKit.fixture("webp/lossy.webp")
        webp.replaceSubrange(4..<8, with: Self.littleEndian(webp.count - 8 - 40, bytes: 4))
        #expect(refusal(webp) == (.corrupt, 0))
        #expect(refusal(webp, Self.lenient) == (.corrupt, 0))
    }

    @Test("Given a lossy bitstream with damaged bytes, when decoded strictly, then it is corrupt")
    func corruptBitstream() throws {
        var webp = try PWGTestKit.fixture("webp/lossy.webp")
        for i in stride(from: 60, to: webp.count - 10, by: 7) { webp[i] ^= 0x5A }
        #expect(refusal(webp).code == .corrupt)
    }

    @Test("Given a VP8 frame header declaring 16383×16383, when decoded, then it is too large and nothing is allocated")
    func absurdFrameHeader() throws {
        var webp = try PWGTestKit.fixture("webp/lossy.webp")
        // The VP8 key frame start code 9D 01 2A is followed by width and height (14 bits each).
        let start = try #require((0..<(webp.count - 3)).first { webp[$0] == 0x9D && webp[$0 + 1] == 0x01 && webp[$0 + 2] == 0x2A })
        webp.replaceSubrange((start + 3)..<(start + 7), with: [0xFF, 0x3F, 0xFF, 0x3F])
        #expect(refusal(webp) == (.tooLarge, 0))
        #expect(throws: CodecError.self) { try WebPDecoder().readInfo(EncodedImage(bytes: webp, sourceName: "h.webp"), limits: DecodeLimits()) }
    }

    @Test("Given an animation whose canvas is 40000×40000, when decoded, then it is too large and nothing is allocated")
    func absurdCanvas() throws {
        let lossy = try PWGTestKit.fixture("webp/lossy.webp")
        let frameData = Array(lossy[12...])
        let vp8x = Self.chunk("VP8X", [0x02, 0, 0, 0] + Self.littleEndian(39_999, bytes: 3) + Self.littleEndian(39_999, bytes: 3))
        let anim = Self.chunk("ANIM", [0, 0, 0, 0, 0, 0])
        let anmf = Self.chunk(
            "ANMF",
            Self.littleEndian(0, bytes: 6) + Self.littleEndian(63, bytes: 3) + Self.littleEndian(47, bytes: 3)
                + Self.littleEndian(100, bytes: 3) + [0] + frameData)
        let webp = Self.riff(vp8x + anim + anmf)
        #expect(refusal(webp) == (.tooLarge, 0))
        // The same file with a 64×64 canvas decodes, so it is the canvas that was refused.
        let small = Self.riff(Self.chunk("VP8X", [0x02, 0, 0, 0] + Self.littleEndian(63, bytes: 3) + Self.littleEndian(63, bytes: 3)) + anim + anmf)
        let decoded = try WebPDecoder().decode(EncodedImage(bytes: small, sourceName: "ok.webp"), options: DecodeOptions())
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 64))
    }

    /// The first "chunk" of noise declares far more data than follows, so libwebp's demuxer asks
    /// for more: truncated.
    @Test("Given random bytes after a RIFF/WEBP header, when decoded, then it is truncated and nothing is allocated")
    func randomAfterHeader() {
        var state: UInt64 = 0xBADC0DE
        var bytes = Array("RIFF".utf8) + Self.littleEndian(308, bytes: 4) + Array("WEBP".utf8)
        for _ in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        #expect(refusal(bytes) == (.truncated, 0))
    }
}
