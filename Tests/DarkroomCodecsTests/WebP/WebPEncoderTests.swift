import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("WebP encoding")
struct WebPEncoderTests {
    private func roundTrip(_ bitmap: Bitmap, _ options: EncodeOptions) throws -> (bytes: [UInt8], bitmap: Bitmap) {
        let bytes = try WebPEncoder().encode(bitmap, options: options)
        let decoded = try WebPDecoder().decode(EncodedImage(bytes: bytes, sourceName: "out.webp"), options: DecodeOptions())
        return (bytes, decoded.bitmap)
    }

    @Test("Given a smooth image, when encoded as lossy WebP at quality 90 and decoded, then PSNR is at least 40 dB")
    func lossyQuality() throws {
        let bitmap = try PWGTestKit.smoothImage(width: 96, height: 64)
        let result = try roundTrip(bitmap, EncodeOptions(quality: 90))
        #expect(result.bitmap.size == bitmap.size)
        #expect(result.bitmap.isOpaque)
        #expect(PWGTestKit.psnr(result.bitmap, bitmap) >= 40)
        #expect(PWGContainers.webpChunks(result.bytes) == ["VP8 "])
    }

    @Test("Given the same image, when encoded at a lower quality, then the file is smaller")
    func qualityChangesSize() throws {
        let bitmap = try PWGTestKit.translucentImage(width: 96, height: 64)
        let low = try WebPEncoder().encode(bitmap, options: EncodeOptions(quality: 20))
        let high = try WebPEncoder().encode(bitmap, options: EncodeOptions(quality: 95))
        #expect(low.count < high.count)
    }

    @Test("Given an opaque image, when encoded losslessly, then it decodes to identical pixels")
    func losslessOpaque() throws {
        let bitmap = try PWGTestKit.smoothImage(width: 40, height: 30)
        let result = try roundTrip(bitmap, EncodeOptions(lossless: true))
        #expect(PWGContainers.webpChunks(result.bytes) == ["VP8L"])
        #expect(PWGTestKit.samePixels(result.bitmap, bitmap))
    }

    @Test("Given an image with transparency, when encoded losslessly, then alpha is exact and colours are within libwebp's premultiply rounding")
    func losslessTranslucent() throws {
        let bitmap = try PWGTestKit.translucentImage(width: 40, height: 30)
        let result = try roundTrip(bitmap, EncodeOptions(lossless: true))
        #expect(!result.bitmap.isOpaque)
        var worst = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap.premultipliedPixel(x: x, y: y)
                let q = result.bitmap.premultipliedPixel(x: x, y: y)
                #expect(p.a == q.a)
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        #expect(worst <= 1)
    }

    @Test("Given an image with transparency, when encoded lossy, then the alpha plane is kept exactly and colours stay close")
    func lossyKeepsAlpha() throws {
        let bitmap = try PWGTestKit.translucentImage(width: 64, height: 32)
        let result = try roundTrip(bitmap, EncodeOptions(quality: 90))
        #expect(PWGContainers.webpChunks(result.bytes) == ["VP8X", "ALPH", "VP8 "])
        for y in stride(from: 0, to: 32, by: 5) {
            for x in stride(from: 0, to: 64, by: 7) {
                #expect(bitmap.premultipliedPixel(x: x, y: y).a == result.bitmap.premultipliedPixel(x: x, y: y).a)
            }
        }
        #expect(PWGTestKit.psnr(result.bitmap, bitmap) >= 35)
    }

    @Test("Given a 50%-alpha red pixel, when encoded losslessly, then the WebP stores straight (255, 0, 0, 128)")
    func storesStraightAlpha() throws {
        let red = try Bitmap(width: 4, height: 4, fill: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(red.premultipliedPixel(x: 0, y: 0) == (128, 0, 0, 128))
        let result = try roundTrip(red, EncodeOptions(lossless: true))
        #expect(result.bitmap.pixel(x: 2, y: 2) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
    }
}

@Suite("WebP encoding limits")
struct WebPEncoderLimitTests {
    @Test("Given a bitmap wider than WebP allows (16383 px), when encoded, then the encoder refuses it with a clear error")
    func refusesOversizedBitmaps() throws {
        let wide = try Bitmap(width: 16_384, height: 1, fill: .white)
        #expect(throws: CodecError(.encodeFailed, source: "output", "WebP cannot store 16384x1: each side must be at most 16383 px")) {
            try WebPEncoder().encode(wide, options: EncodeOptions())
        }
    }
}
