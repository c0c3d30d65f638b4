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

    @Test("Quality maps onto one quantizer as libavif 1.0 does; speed defaults to 8 and is clamped")
    func settings() {
        #expect(AVIFSettings.quantizer(quality: 100) == 0)
        #expect(AVIFSettings.quantizer(quality: 80) == 13)
        #expect(AVIFSettings.quantizer(quality: 50) == 32)
        #expect(AVIFSettings.quantizer(quality: 1) == 62)
        #expect(AVIFSettings(EncodeOptions()).speed == 8)
        #expect(AVIFSettings(EncodeOptions(avifSpeed: 42)).speed == 10)
        #expect(AVIFSettings(EncodeOptions(lossless: true)).quantizer == 0)
        #expect(AVIFSettings.codecName == "aom")
        #expect(AVIFSettings(EncodeOptions(quality: 50, avifSpeed: 6)).cacheKeyPart == ";avif=aom/s6/q32")
    }

    @Test("The standard registry writes AVIF, and names it among the formats it writes")
    func registry() throws {
        #expect(try CoderRegistry.standard.encoder(for: .avif).format == .avif)
        #expect(CoderRegistry.standard.writableFormat(named: "AVIF") == .avif)
        #expect(ImageFormat(fileExtension: "avif") == .avif && ImageFormat.avif.isWritable && ImageFormat.avif.isBuiltIn)
        #expect(CoderRegistry.standard.outputFormats == OutputFormats.standard)
    }
}
