import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("WebP decoding")
struct WebPDecoderTests {
    /// libwebp premultiplies (`MODE_rgbA`) with its own fixed-point product, which can be one
    /// below the rounded value; alpha itself is exact.
    @Test(
        "Given a lossless WebP with or without alpha, when decoded, then every pixel is dwebp's output premultiplied (within 1)",
        arguments: [("lossless", true), ("lossless-alpha", false)])
    func decodesLossless(name: String, opaque: Bool) throws {
        let decoded = try WebPDecoder().decode(PWGTestKit.encoded("webp/\(name).webp"), options: DecodeOptions())
        let reference = try PWGTestKit.fixture("webp/\(name).rgba")
        #expect(decoded.bitmap.size == PixelSize(width: 23, height: 17))
        #expect(decoded.bitmap.isOpaque == opaque)
        #expect(decoded.info == ImageInfo(format: .webp, storedSize: PixelSize(width: 23, height: 17), hasAlpha: !opaque))
        let mismatch = PWGTestKit.firstMismatch(decoded.bitmap, straight: reference, tolerance: opaque ? 0 : 1)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("Given a lossy WebP with an alpha channel, when decoded, then alpha runs from transparent on the left to opaque on the right")
    func decodesLossyAlpha() throws {
        let bitmap = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy-alpha.webp"), options: DecodeOptions()).bitmap
        #expect(bitmap.size == PixelSize(width: 64, height: 48))
        #expect(!bitmap.isOpaque)
        #expect(bitmap.premultipliedPixel(x: 0, y: 20) == (0, 0, 0, 0))
        #expect(bitmap.premultipliedPixel(x: 63, y: 20).a == 255)
        let middle = bitmap.premultipliedPixel(x: 32, y: 20)
        #expect(abs(Int(middle.a) - 129) <= 2)
        // Premultiplied: no channel exceeds alpha.
        #expect(middle.r <= middle.a && middle.g <= middle.a && middle.b <= middle.a)
    }

    @Test("Given a decode hint, when a still WebP is decoded, then libwebp scales it to twice the target and the full size is remembered")
    func shrinksOnLoad() throws {
        let hint = DecodeHint(box: PixelSize(width: 16, height: 16), mode: .fit)
        let decoded = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy.webp"), options: DecodeOptions(hint: hint))
        // 64×48 fitted into 16×16 is 16×12; decoded at 2× that.
        #expect(decoded.bitmap.size == PixelSize(width: 32, height: 24))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == PixelSize(width: 64, height: 48))
        #expect(decoded.bitmap.logicalSize == PixelSize(width: 64, height: 48))
        #expect(decoded.info.storedSize == PixelSize(width: 64, height: 48))
        #expect(decoded.bitmap.isOpaque)
    }

    @Test("Given a hint that barely shrinks the image, when decoded, then the WebP is decoded at full size")
    func skipsPointlessShrink() throws {
        let hint = DecodeHint(box: PixelSize(width: 60, height: 60), mode: .fit)
        let decoded = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy.webp"), options: DecodeOptions(hint: hint))
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 48))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == nil)
    }

    @Test("Given an animated WebP whose first frame is smaller than the canvas, when decoded, then the frame sits at its offset on a transparent canvas")
    func decodesFirstAnimationFrame() throws {
        let decoded = try WebPDecoder().decode(PWGTestKit.encoded("webp/anim.webp"), options: DecodeOptions())
        let bitmap = decoded.bitmap
        #expect(bitmap.size == PixelSize(width: 20, height: 16))
        #expect(decoded.info.frameCount == 3)
        #expect(decoded.info.isAnimated)
        #expect(!bitmap.isOpaque)
        // Frame 1: 8×6 blue at (4, 6).
        for (x, y) in [(4, 6), (11, 11), (7, 8)] {
            #expect(bitmap.premultipliedPixel(x: x, y: y) == (0, 0, 255, 255), "(\(x), \(y))")
        }
        for (x, y) in [(0, 0), (3, 6), (12, 6), (4, 5), (4, 12), (19, 15)] {
            #expect(bitmap.premultipliedPixel(x: x, y: y) == (0, 0, 0, 0), "(\(x), \(y))")
        }
    }

    @Test("Given an animation with more frames than the limit, when read or decoded, then it is refused as too many frames before any pixel is allocated")
    func refusesTooManyFrames() throws {
        let image = try PWGTestKit.encoded("webp/anim.webp")
        let limits = DecodeLimits(maxFrames: 2)
        let decode = PWGTestKit.allocations { () throws(CodecError) in
            _ = try WebPDecoder().decode(image, options: DecodeOptions(limits: limits))
        }
        #expect(decode.error?.code == .tooManyFrames)
        #expect(decode.count == 0)
        #expect(throws: CodecError.self) { try WebPDecoder().readInfo(image, limits: limits) }
    }

    @Test("Given a WebP with an ICC profile, when decoded, then the pixels are converted from that profile to sRGB")
    func convertsICCProfile() throws {
        let tagged = try WebPDecoder().decode(PWGTestKit.encoded("webp/icc.webp"), options: DecodeOptions())
        let untagged = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy.webp"), options: DecodeOptions())
        #expect(tagged.info.hasICCProfile)
        #expect(!untagged.info.hasICCProfile)
        // Same bitstream; the Adobe RGB (1998) profile makes the colours more saturated in sRGB.
        #expect(!PWGTestKit.samePixels(tagged.bitmap, untagged.bitmap))
        #expect(PWGTestKit.psnr(tagged.bitmap, untagged.bitmap) < 40)
    }

    @Test("Given a WebP whose ICC profile is garbage, when decoded strictly it fails with a colour-profile error, and leniently it keeps the pixels")
    func brokenICCProfile() throws {
        let image = try PWGTestKit.encoded("webp/icc-broken.webp")
        #expect(throws: CodecError.self) { try WebPDecoder().decode(image, options: DecodeOptions()) }
        do {
            _ = try WebPDecoder().decode(image, options: DecodeOptions())
        } catch {
            #expect(error.code == .colorProfile)
        }
        let lenient = try WebPDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: false)))
        let plain = try WebPDecoder().decode(PWGTestKit.encoded("webp/lossy.webp"), options: DecodeOptions())
        #expect(PWGTestKit.samePixels(lenient.bitmap, plain.bitmap))
    }

    @Test("Given a WebP, when its header is read, then canvas, frames and alpha are reported without allocating pixels")
    func readsInfoWithoutPixels() throws {
        let image = try PWGTestKit.encoded("webp/anim.webp")
        var info: ImageInfo?
        let result = PWGTestKit.allocations { () throws(CodecError) in
            info = try WebPDecoder().readInfo(image, limits: DecodeLimits())
        }
        #expect(result.count == 0)
        #expect(info?.storedSize == PixelSize(width: 20, height: 16))
        #expect(info?.frameCount == 3)
        #expect(WebPDecoder().canDecode(image.bytes))
        #expect(!PNGDecoder().canDecode(image.bytes))
    }
}
