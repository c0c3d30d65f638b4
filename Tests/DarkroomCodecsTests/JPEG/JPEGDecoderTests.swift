import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG decoding")
struct JPEGDecoderTests {
    @Test("canDecode accepts data starting FF D8 FF and nothing else")
    func sniffing() {
        let decoder = JPEGDecoder()
        #expect(decoder.canDecode([0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(decoder.canDecode([0xFF, 0xD8, 0xFF]))
        #expect(!decoder.canDecode([0xFF, 0xD8]))
        #expect(!decoder.canDecode([0xFF, 0xD8, 0x00, 0xFF]))
        #expect(!decoder.canDecode(Array("<html>".utf8)))
        #expect(!decoder.canDecode([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("readInfo reports stored size, orientation and profile from the header alone")
    func readInfo() throws {
        let decoder = JPEGDecoder()
        let info = try decoder.readInfo(JPEGTestKit.image("orientation-6.jpg"), limits: DecodeLimits())
        #expect(info.format == .jpeg)
        #expect(info.storedSize == PixelSize(width: 48, height: 64))
        #expect(info.orientation == .right)
        #expect(info.uprightSize == PixelSize(width: 64, height: 48))
        #expect(!info.hasAlpha)
        #expect(!info.hasICCProfile)
        let tagged = try decoder.readInfo(JPEGTestKit.image("adobergb.jpg"), limits: DecodeLimits())
        #expect(tagged.hasICCProfile)
        #expect(tagged.orientation == .up)
    }

    @Test("Given 4:4:4, 4:2:2, 4:2:0 and progressive files of one scene, each decodes opaque and close to the source")
    func subsamplingAndProgressive() throws {
        let source = try JPEGTestKit.ppm("scene-96x64.ppm")
        for name in ["scene-444.jpg", "scene-422.jpg", "scene-420.jpg", "scene-progressive.jpg"] {
            let decoded = try JPEGTestKit.decode(name)
            #expect(decoded.bitmap.size == PixelSize(width: 96, height: 64), "\(name)")
            #expect(decoded.bitmap.isOpaque, "\(name)")
            #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == nil, "\(name)")
            #expect(decoded.bitmap.scanIsOpaque(), "\(name): alpha must be 255 everywhere")
            let psnr = JPEGTestKit.psnr(decoded.bitmap, source)
            #expect(psnr > 32, "\(name): PSNR \(psnr) dB against the source")
            // The red patch at (8…23, 8…23) stays red.
            #expect(JPEGTestKit.pixel(decoded.bitmap, x: 16, y: 16, isNear: (200, 40, 40), tolerance: 12), "\(name)")
        }
    }

    @Test("A greyscale JPEG decodes to RGBA with equal channels")
    func grayscale() throws {
        let decoded = try JPEGTestKit.decode("scene-gray.jpg")
        #expect(decoded.bitmap.size == PixelSize(width: 96, height: 64))
        #expect(decoded.bitmap.isOpaque)
        for (x, y) in [(0, 0), (16, 16), (95, 63), (50, 30)] {
            let p = decoded.bitmap.premultipliedPixel(x: x, y: y)
            #expect(p.r == p.g && p.g == p.b && p.a == 255)
        }
        // Luma of the (200, 40, 40) patch: 0.299·200 + 0.587·40 + 0.114·40 ≈ 88.
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 16, y: 16, isNear: (88, 88, 88), tolerance: 6))
    }

    @Test(
        "Given each EXIF orientation 1…8, the decoded image is upright: red top-left, green top-right, blue bottom-left, white bottom-right",
        arguments: 1...8)
    func orientation(_ value: Int) throws {
        let decoded = try JPEGTestKit.decode("orientation-\(value).jpg")
        #expect(decoded.info.orientation.rawValue == value)
        let bitmap = decoded.bitmap
        #expect(bitmap.size == PixelSize(width: 64, height: 48))
        #expect(JPEGTestKit.pixel(bitmap, x: 8, y: 8, isNear: (220, 30, 30)), "top-left must be red")
        #expect(JPEGTestKit.pixel(bitmap, x: 55, y: 8, isNear: (30, 200, 60)), "top-right must be green")
        #expect(JPEGTestKit.pixel(bitmap, x: 8, y: 39, isNear: (40, 60, 210)), "bottom-left must be blue")
        #expect(JPEGTestKit.pixel(bitmap, x: 55, y: 39, isNear: (240, 240, 240)), "bottom-right must be white")
    }

    @Test("An Exif block whose IFD offset points outside it is ignored: the image decodes as stored")
    func hostileExif() throws {
        let base = try JPEGTestKit.fixture("orientation-1.jpg")
        // "Exif\0\0", then a TIFF header whose IFD0 offset is 0x7FFFFFF0.
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 0xF0, 0xFF, 0xFF, 0x7F, 0, 0]
        let hostile = JPEGTestKit.inserting(JPEGTestKit.segment(0xE1, payload), into: base)
        let decoded = try JPEGDecoder().decode(EncodedImage(bytes: hostile, sourceName: "exif.jpg"), options: DecodeOptions())
        #expect(decoded.info.orientation == .up)
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 8, y: 8, isNear: (220, 30, 30)))
    }

    @Test("The decoder is found by sniffing through the registry even when named .png")
    func registrySniffing() throws {
        let registry = CoderRegistry(decoders: [JPEGDecoder()], encoders: [JPEGEncoder()])
        let image = EncodedImage(bytes: try JPEGTestKit.fixture("scene-420.jpg"), sourceName: "photo.png")
        #expect(try registry.decoder(for: image).format == .jpeg)
        #expect(try registry.decode(image).bitmap.size == PixelSize(width: 96, height: 64))
    }
}
