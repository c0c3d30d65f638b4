import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("AVIF decoding")
struct AVIFDecoderTests {
    @Test("8, 10 and 12-bit AVIFs decode to 8-bit pixels close to their source", arguments: ["rgb8.avif", "rgb10.avif", "rgb12.avif"])
    func depths(name: String) throws {
        let decoded = try AVIFTestKit.decode(name)
        #expect(decoded.info.format == .avif)
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 43))
        #expect(decoded.bitmap.isOpaque)
        #expect(JPEGTestKit.psnr(decoded.bitmap, try AVIFTestKit.reference()) > 30)
    }

    @Test("Sniffed as AVIF and routed to this decoder by the standard registry")
    func routing() throws {
        let bytes = try AVIFTestKit.fixture("rgb8.avif")
        #expect(ImageFormat.sniff(bytes) == .avif)
        #expect(try CoderRegistry.standard.decoder(for: EncodedImage(bytes: bytes, sourceName: "x")).format == .avif)
        let info = try CoderRegistry.standard.readInfo(EncodedImage(bytes: bytes, sourceName: "x"))
        #expect(info.storedSize == PixelSize(width: 64, height: 43) && info.frameCount == 1 && !info.hasAlpha)
    }

    @Test("Alpha is kept and premultiplied")
    func alpha() throws {
        let decoded = try AVIFTestKit.decode("alpha.avif")
        #expect(try AVIFDecoder().readInfo(AVIFTestKit.image("alpha.avif"), limits: DecodeLimits()).hasAlpha)
        #expect(!decoded.bitmap.isOpaque)
        let left = decoded.bitmap.premultipliedPixel(x: 0, y: 20)
        let right = decoded.bitmap.premultipliedPixel(x: 63, y: 20)
        #expect(left.a < 8 && left.r <= left.a)
        #expect(right.a > 240)
    }

    @Test("irot and imir turn the image upright; the Exif orientation beside them is ignored")
    func orientation() throws {
        // irot 1 (90° anticlockwise) then imir 1 (left-right) is EXIF orientation 7 (transverse);
        // the file's Exif says 6, which would give a different picture.
        let info = try AVIFDecoder().readInfo(AVIFTestKit.image("orient.avif"), limits: DecodeLimits())
        #expect(info.orientation == .rightMirrored)
        #expect(info.uprightSize == PixelSize(width: 43, height: 64))
        let decoded = try AVIFTestKit.decode("orient.avif")
        #expect(decoded.bitmap.size == PixelSize(width: 43, height: 64))
        let reference = try AVIFTestKit.reference()
        #expect(JPEGTestKit.psnr(decoded.bitmap, try reference.applying(.rightMirrored)) > 30)
        #expect(JPEGTestKit.psnr(decoded.bitmap, try reference.applying(.right)) < 20)
    }

    @Test("Every irot/imir pair maps to the EXIF orientation that shows the same picture")
    func orientationTable() {
        let expected: [ImageOrientation] =
            [.up, .downMirrored, .upMirrored, .left, .leftMirrored, .rightMirrored]
            + [.down, .upMirrored, .downMirrored, .right, .rightMirrored, .leftMirrored]
        var index = 0
        for angle in 0..<4 {
            for mirror in [nil, 0, 1] as [Int?] {
                let orientation = HEIFHeader.orientation(rotation: angle, mirror: mirror)
                #expect(orientation == expected[index], "irot \(angle) imir \(String(describing: mirror))")
                index += 1
            }
        }
    }

    @Test("An ICC profile and the same colours said by CICP (Display P3) both convert to sRGB alike")
    func colour() throws {
        let plain = try AVIFTestKit.decode("rgb8.avif").bitmap
        let icc = try AVIFTestKit.decode("icc-p3.avif")
        let cicp = try AVIFTestKit.decode("cicp-p3.avif").bitmap
        #expect(icc.info.hasICCProfile)
        #expect(AVIFTestKit.meanDifference(icc.bitmap, cicp) < 2.5)
        #expect(AVIFTestKit.meanDifference(icc.bitmap, plain) > 2.5)
        #expect(AVIFTestKit.meanDifference(cicp, plain) > 2.5)
    }

    @Test("A sequence decodes its first frame and says how many frames it has")
    func sequence() throws {
        let decoded = try AVIFTestKit.decode("sequence3.avif")
        #expect(decoded.info.frameCount == 3 && decoded.info.isAnimated)
        #expect(decoded.bitmap.size == PixelSize(width: 64, height: 43))
        #expect(JPEGTestKit.psnr(decoded.bitmap, try AVIFTestKit.reference()) > 30)
    }
}
