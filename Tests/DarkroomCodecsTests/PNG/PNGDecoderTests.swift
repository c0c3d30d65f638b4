import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// Fixtures are 23×17 (odd sizes exercise Adam7's partial blocks) or 16×8 and come with a
/// reference decode in straight RGBA8 (`.rgba`, made by ImageMagick; see Fixtures/png/README.md).
@Suite("PNG decoding")
struct PNGDecoderTests {
    /// Fixture name and whether the decoded bitmap must be flagged opaque.
    static let colourTypes: [(String, Bool)] = [
        ("rgb8", true), ("rgba8", false), ("rgb16", true), ("rgba16", false),
        ("rgba8-adam7", false), ("rgba16-adam7", false),
        ("gray1", true), ("gray2", true), ("gray4", true), ("gray8", true), ("gray16", true),
        ("gray2-adam7", true), ("graya8", false), ("graya16", false),
        ("palette1", true), ("palette2", true), ("palette4", true),
        ("palette8-binary-trns", false), ("palette8-trns", false),
        ("gray8-trns", false), ("rgb8-trns", false), ("rgb16-trns", false),
    ]

    @Test(
        "Given a PNG of any colour type, bit depth or interlacing, when decoded, then every pixel is the reference premultiplied and isOpaque matches",
        arguments: colourTypes)
    func decodesEveryColourType(name: String, opaque: Bool) throws {
        let image = try PWGTestKit.encoded("png/\(name).png")
        let reference = try PWGTestKit.fixture("png/\(name).rgba")
        let decoded = try PNGDecoder().decode(image, options: DecodeOptions())
        #expect(decoded.info.format == .png)
        #expect(decoded.info.hasAlpha == !opaque)
        #expect(decoded.bitmap.isOpaque == opaque)
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == nil)
        let mismatch = PWGTestKit.firstMismatch(decoded.bitmap, straight: reference)
        #expect(mismatch == nil, "\(name): \(mismatch ?? "")")
    }

    @Test(
        "Given an interlaced PNG, when decoded, then it equals the same image stored without interlacing",
        arguments: [("rgba8-adam7", "rgba8"), ("rgba16-adam7", "rgba16")])
    func interlacedEqualsPlain(interlaced: String, plain: String) throws {
        let a = try PNGDecoder().decode(PWGTestKit.encoded("png/\(interlaced).png"), options: DecodeOptions()).bitmap
        let b = try PNGDecoder().decode(PWGTestKit.encoded("png/\(plain).png"), options: DecodeOptions()).bitmap
        #expect(PWGTestKit.samePixels(a, b))
    }

    @Test("Given a 50%-alpha red pixel, when decoded, then it is stored premultiplied as (128, 0, 0, 128)")
    func premultipliesSemiTransparentPixels() throws {
        let bitmap = try PNGDecoder().decode(PWGTestKit.encoded("png/half-red.png"), options: DecodeOptions()).bitmap
        let p = bitmap.premultipliedPixel(x: 0, y: 0)
        #expect(abs(Int(p.r) - 128) <= 1 && p.g == 0 && p.b == 0 && p.a == 128)
        #expect(bitmap.premultipliedPixel(x: 1, y: 0) == (0, 255, 0, 255))
        #expect(!bitmap.isOpaque)
    }

    @Test("Given 16-bit samples, when narrowed to 8 bits, then every value is rounded, not truncated")
    func sixteenBitRounding() {
        for v in 0...65535 {
            let expected = UInt8((Double(v) * 255 / 65535).rounded())
            if PNGScanlines.narrow(UInt16(v)) != expected {
                Issue.record("narrow(\(v)) = \(PNGScanlines.narrow(UInt16(v))), want \(expected)")
                return
            }
        }
        // 29789 / 257 = 115.9: truncation would give 115.
        #expect(PNGScanlines.narrow(29789) == 116)
    }

    @Test("Given a PNG, when its header is read, then size, alpha and profile are reported without allocating pixels")
    func readsInfoWithoutPixels() throws {
        let image = try PWGTestKit.encoded("png/rgba16.png")
        var info: ImageInfo?
        let result = PWGTestKit.allocations { () throws(CodecError) in
            info = try PNGDecoder().readInfo(image, limits: DecodeLimits())
        }
        #expect(result.count == 0)
        #expect(info == ImageInfo(format: .png, storedSize: PixelSize(width: 23, height: 17), hasAlpha: true))
    }

    @Test("Given PNG bytes, when sniffed, then only the PNG decoder claims them")
    func sniffing() throws {
        let bytes = try PWGTestKit.fixture("png/rgb8.png")
        #expect(PNGDecoder().canDecode(bytes))
        #expect(!PNGDecoder().canDecode(Array(bytes.prefix(7))))
        #expect(!WebPDecoder().canDecode(bytes))
        #expect(!GIFDecoder().canDecode(bytes))
    }
}

@Suite("PNG colour profiles")
struct PNGColorProfileTests {
    @Test("Given a PNG tagged with Adobe RGB (1998) in iCCP, when decoded, then its pixels are converted to sRGB (as ImageMagick converts them, within 3)")
    func convertsICCProfile() throws {
        let decoded = try PNGDecoder().decode(PWGTestKit.encoded("png/rgb8-adobergb.png"), options: DecodeOptions())
        #expect(decoded.info.hasICCProfile)
        let reference = try PWGTestKit.fixture("png/rgb8-adobergb-in-srgb.rgba")
        let mismatch = PWGTestKit.firstMismatch(decoded.bitmap, straight: reference, tolerance: 3)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let untagged = try PNGDecoder().decode(PWGTestKit.encoded("png/rgb8.png"), options: DecodeOptions())
        #expect(!PWGTestKit.samePixels(decoded.bitmap, untagged.bitmap))
    }

    @Test(
        "Given a greyscale PNG tagged with Ghostscript's sGray profile, when decoded, then it stays grey and matches ImageMagick's conversion to sRGB (within 3)"
    )
    func greyProfile() throws {
        let tagged = try PNGDecoder().decode(PWGTestKit.encoded("png/gray8-sgray.png"), options: DecodeOptions()).bitmap
        let reference = try PWGTestKit.fixture("png/gray8-sgray-in-srgb.rgba")
        let mismatch = PWGTestKit.firstMismatch(tagged, straight: reference, tolerance: 3)
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let p = tagged.premultipliedPixel(x: 11, y: 8)
        #expect(p.r == p.g && p.g == p.b)
    }

    @Test("Given a PNG whose iCCP is not a profile, when decoded strictly it fails with a colour-profile error, and leniently the pixels are kept as sRGB")
    func brokenProfile() throws {
        let image = try PWGTestKit.encoded("png/rgb8-broken-iccp.png")
        var code: CodecError.Code?
        do { _ = try PNGDecoder().decode(image, options: DecodeOptions()) } catch { code = error.code }
        #expect(code == .colorProfile)
        let lenient = try PNGDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: false)))
        let plain = try PNGDecoder().decode(PWGTestKit.encoded("png/rgb8.png"), options: DecodeOptions())
        #expect(PWGTestKit.samePixels(lenient.bitmap, plain.bitmap))
    }
}
