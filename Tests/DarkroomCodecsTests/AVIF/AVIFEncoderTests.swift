import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("AVIF encoding")
struct AVIFEncoderTests {
    @Test("Lossy round trip at the default quality and speed stays close to the source")
    func lossy() throws {
        let reference = try AVIFTestKit.reference()
        let bytes = try AVIFEncoder().encode(reference, options: EncodeOptions())
        #expect(ImageFormat.sniff(bytes) == .avif)
        let decoded = try AVIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "out.avif"), options: DecodeOptions())
        #expect(decoded.bitmap.size == reference.size && decoded.bitmap.isOpaque)
        // A 64×43 image loses much of its colour detail to 4:2:0 alone: 30 dB is the fixtures' bar too.
        #expect(JPEGTestKit.psnr(decoded.bitmap, reference) > 30)
        let small = try AVIFEncoder().encode(reference, options: EncodeOptions(quality: 20, avifSpeed: 10))
        #expect(small.count < bytes.count)
    }

    @Test("Lossless (4:4:4, identity matrix, quantizer 0) gives the pixels back exactly")
    func lossless() throws {
        let reference = try AVIFTestKit.reference()
        let bytes = try AVIFEncoder().encode(reference, options: EncodeOptions(lossless: true))
        let decoded = try AVIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "out.avif"), options: DecodeOptions())
        #expect(JPEGTestKit.psnr(decoded.bitmap, reference) == 99)
    }

    @Test("Alpha is written and read back")
    func alpha() throws {
        let source = try AVIFTestKit.decode("alpha.avif").bitmap
        let bytes = try AVIFEncoder().encode(source, options: EncodeOptions(quality: 90))
        let decoded = try AVIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "out.avif"), options: DecodeOptions())
        #expect(!decoded.bitmap.isOpaque)
        #expect(decoded.bitmap.premultipliedPixel(x: 0, y: 20).a < 12)
        #expect(decoded.bitmap.premultipliedPixel(x: 63, y: 20).a > 236)
    }

    @Test("From quality 90 up the chroma is 4:4:4 (the av1C box says so), below it 4:2:0")
    func chroma() throws {
        let reference = try AVIFTestKit.reference()
        /// chroma_subsampling_x and _y from the AV1 configuration box (ISO/IEC 23008-12 av1C).
        func subsampling(_ bytes: [UInt8]) -> (x: Bool, y: Bool)? {
            let type = Array("av1C".utf8)
            guard let at = (0..<(bytes.count - 7)).first(where: { Array(bytes[$0..<$0 + 4]) == type }) else { return nil }
            let flags = bytes[at + 6]
            return (flags & 0x08 != 0, flags & 0x04 != 0)
        }
        for (quality, halved) in [(89, true), (90, false), (100, false)] {
            let bytes = try AVIFEncoder().encode(reference, options: EncodeOptions(quality: quality))
            let chroma = try #require(subsampling(bytes))
            #expect(chroma.x == halved && chroma.y == halved, "quality \(quality)")
            let decoded = try AVIFDecoder().decode(EncodedImage(bytes: bytes, sourceName: "out.avif"), options: DecodeOptions())
            #expect(JPEGTestKit.psnr(decoded.bitmap, reference) > (halved ? 30 : 40), "quality \(quality)")
        }
        #expect(AVIFSettings(EncodeOptions(quality: 89)).fullChroma == false)
        #expect(AVIFSettings(EncodeOptions(quality: 90)).fullChroma && AVIFSettings(EncodeOptions(lossless: true)).fullChroma)
    }

    @Test("Quality maps onto one quantizer as libavif 1.0 does; speed defaults to 6 and is clamped")
    func settings() {
        #expect(AVIFSettings.quantizer(quality: 100) == 0)
        #expect(AVIFSettings.quantizer(quality: 80) == 13)
        #expect(AVIFSettings.quantizer(quality: 50) == 32)
        #expect(AVIFSettings.quantizer(quality: 1) == 62)
        #expect(AVIFSettings(EncodeOptions()).speed == 6)
        #expect(AVIFSettings(EncodeOptions(avifSpeed: 42)).speed == 10)
        #expect(AVIFSettings(EncodeOptions(lossless: true)).quantizer == 0)
        #expect(AVIFSettings.codecName == "aom")
        #expect(AVIFSettings(EncodeOptions(quality: 50, avifSpeed: 8)).cacheKeyPart == ";avif=aom/s8/q32/420")
        #expect(AVIFSettings(EncodeOptions(quality: 95)).cacheKeyPart == ";avif=aom/s6/q3/444")
    }

    @Test("The standard registry writes AVIF, and names it among the formats it writes")
    func registry() throws {
        #expect(try CoderRegistry.standard.encoder(for: .avif).format == .avif)
        #expect(CoderRegistry.standard.writableFormat(named: "AVIF") == .avif)
        #expect(ImageFormat(fileExtension: "avif") == .avif && ImageFormat.avif.isWritable && ImageFormat.avif.isBuiltIn)
        #expect(CoderRegistry.standard.outputFormats == OutputFormats.standard)
    }
}
