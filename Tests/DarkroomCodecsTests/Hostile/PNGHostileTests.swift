import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// Hostile and damaged PNGs: each must end in a precise error (or, leniently, in what could be
/// recovered) and a refused header must allocate no pixel memory.
@Suite("Hostile PNG input")
struct PNGHostileTests {
    private static let strict = DecodeOptions()
    private static let lenient = DecodeOptions(limits: DecodeLimits(strict: false))

    private func decode(_ bytes: [UInt8], _ options: DecodeOptions = strict) throws(CodecError) -> DecodedImage {
        try PNGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "hostile.png"), options: options)
    }

    /// The error and the number of pixel buffers allocated by decoding `bytes`.
    private func refusal(_ bytes: [UInt8], _ options: DecodeOptions = strict) -> (code: CodecError.Code?, allocations: Int) {
        let result = PWGTestKit.allocations { () throws(CodecError) in _ = try decode(bytes, options) }
        return (result.error?.code, result.count)
    }

    @Test("Given a 100000×100000 header, when read or decoded, then it is too large and nothing is allocated")
    func absurdDimensions() throws {
        let png = PWGPNGBuilder.png(width: 100_000, height: 100_000, idat: PWGPNGBuilder.zeroBombPrefix)
        #expect(refusal(png) == (.tooLarge, 0))
        #expect(refusal(png, Self.lenient) == (.tooLarge, 0))
        #expect(throws: CodecError(.tooLarge, source: "h.png", "declares 100000x100000, over the 32768 px per side input limit (a fixed limit)")) {
            try PNGDecoder().readInfo(EncodedImage(bytes: png, sourceName: "h.png"), limits: DecodeLimits())
        }
    }

    @Test("Given a zero-width header, when decoded, then the dimensions are invalid and nothing is allocated")
    func zeroWidth() {
        let png = PWGPNGBuilder.png(width: 0, height: 100, idat: PWGPNGBuilder.zeroBombPrefix)
        #expect(refusal(png) == (.invalidDimensions, 0))
    }

    @Test("Given a 900 MP all-zero PNG of 870 KB (a decompression bomb), when decoded, then its header is refused before anything is inflated or allocated")
    func decompressionBomb() {
        let bomb = PWGPNGBuilder.decompressionBomb()
        #expect(bomb.count < 1_000_000)
        #expect(refusal(bomb) == (.tooLarge, 0))
        // Even with the configurable limits raised, the hard bitmap ceiling refuses it first.
        let raised = DecodeOptions(limits: DecodeLimits(maxPixels: 2_000_000_000, maxDimension: 65_535))
        #expect(refusal(bomb, raised) == (.tooLarge, 0))
    }

    @Test(
        "Given an iCCP or zTXt chunk that inflates to 20 MB, when decoded, then the chunk limit refuses it",
        arguments: ["iCCP", "zTXt"])
    func metadataBomb(type: String) throws {
        let original = try PWGTestKit.fixture("png/rgb8.png")
        let bomb = PWGPNGBuilder.chunk(type, Array("bomb".utf8) + [0, 0] + PWGPNGBuilder.zeroBombPrefix + [UInt8](repeating: 0, count: 20_000))
        // Insert the chunk right after IHDR (8 + 25 bytes).
        let png = Array(original[0..<33]) + bomb + Array(original[33...])
        #expect(refusal(png).code == .tooLarge)
        #expect(refusal(png, Self.lenient).code == .tooLarge)
    }

    @Test("Given a PNG cut short at the signature, inside IHDR, after IHDR, inside IDAT or before IEND, when decoded strictly, then it is truncated")
    func truncatedStrict() throws {
        let png = try PWGTestKit.fixture("png/rgba8.png")
        let idat = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IDAT" })
        let iend = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IEND" })
        for cut in [8, 20, 33, idat.offset + 8 + idat.length / 2, iend.offset, iend.offset + 6] {
            #expect(refusal(Array(png.prefix(cut))).code == .truncated, "cut at \(cut) of \(png.count)")
        }
        // Every shorter prefix fails too (never a crash), with a truncation error.
        for cut in 8..<iend.offset {
            #expect(refusal(Array(png.prefix(cut))).code == .truncated, "cut at \(cut)")
        }
    }

    @Test("Given a PNG cut inside its image data, when decoded leniently, then the rows before the cut are kept and the rest are transparent")
    func truncatedLenient() throws {
        let original = try PWGTestKit.translucentImage(width: 64, height: 48)
        let png = try PNGEncoder().encode(original, options: EncodeOptions())
        let idat = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IDAT" })
        let cut = Array(png.prefix(idat.offset + 8 + idat.length / 2))
        #expect(refusal(cut).code == .truncated)
        let decoded = try decode(cut, Self.lenient).bitmap
        #expect(decoded.size == original.size)
        #expect(!decoded.isOpaque)
        for x in 0..<64 {
            #expect(decoded.premultipliedPixel(x: x, y: 0) == original.premultipliedPixel(x: x, y: 0))
            #expect(decoded.premultipliedPixel(x: x, y: 47) == (0, 0, 0, 0))
        }
        // Before any row, there is nothing to keep.
        #expect(refusal(Array(png.prefix(40)), Self.lenient).code == .truncated)
    }

    @Test("Given a PNG whose IDAT CRC is wrong, when decoded strictly it is corrupt, and leniently it decodes as if the CRC were right")
    func badCRC() throws {
        var png = try PWGTestKit.fixture("png/rgba8.png")
        let idat = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IDAT" })
        png[idat.offset + 8 + idat.length] ^= 0xFF
        #expect(refusal(png) == (.corrupt, 1))
        let lenient = try decode(png, Self.lenient).bitmap
        let clean = try PNGDecoder().decode(PWGTestKit.encoded("png/rgba8.png"), options: DecodeOptions()).bitmap
        #expect(PWGTestKit.samePixels(lenient, clean))
    }

    @Test("Given a PNG whose IHDR CRC is wrong, when decoded strictly, then it is corrupt before anything is allocated")
    func badHeaderCRC() throws {
        var png = try PWGTestKit.fixture("png/rgba8.png")
        png[29] ^= 0x01
        #expect(refusal(png) == (.corrupt, 0))
    }

    @Test("Given damaged compressed data with valid CRCs, when decoded strictly it is corrupt, and leniently the rows before the damage are kept")
    func corruptDeflate() throws {
        let original = try PWGTestKit.smoothImage(width: 64, height: 48)
        let png = try PNGEncoder().encode(original, options: EncodeOptions())
        let idat = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IDAT" })
        let start = idat.offset + 8
        var body = Array(png[start..<(start + idat.length)])
        for i in stride(from: body.count / 2, to: body.count, by: 3) { body[i] ^= 0x5A }
        let damaged = Array(png[0..<idat.offset]) + PWGPNGBuilder.chunk("IDAT", body) + PWGPNGBuilder.chunk("IEND", [])
        #expect(refusal(damaged).code == .corrupt)
        let lenient = try decode(damaged, Self.lenient).bitmap
        #expect(lenient.premultipliedPixel(x: 10, y: 0) == original.premultipliedPixel(x: 10, y: 0))
    }

    @Test("Given a PNG without IEND, when decoded strictly it is truncated, and leniently it decodes fully")
    func missingIEND() throws {
        let png = try PWGTestKit.fixture("png/rgb8.png")
        let iend = try #require(PWGPNGBuilder.chunks(png).first { $0.type == "IEND" })
        let cut = Array(png.prefix(iend.offset))
        #expect(refusal(cut).code == .truncated)
        let decoded = try decode(cut, Self.lenient).bitmap
        #expect(decoded.isOpaque)
    }

    @Test("Given random bytes after a valid PNG signature, when decoded, then it is corrupt and nothing is allocated")
    func randomAfterSignature() {
        var state: UInt64 = 0x5EED
        var bytes = PWGPNGBuilder.signature
        for _ in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        #expect(refusal(bytes) == (.corrupt, 0))
        #expect(refusal(bytes, Self.lenient) == (.corrupt, 0))
    }

    @Test("Given bytes after IEND, when decoded strictly, then they are ignored")
    func trailingBytesAfterIEND() throws {
        let png = try PWGTestKit.fixture("png/rgb8.png") + Array("<html>trailing junk</html>".utf8)
        #expect(try decode(png).bitmap.size == PixelSize(width: 23, height: 17))
    }
}
