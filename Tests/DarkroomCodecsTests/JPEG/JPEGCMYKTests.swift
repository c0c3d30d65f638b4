import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG CMYK and YCCK")
struct JPEGCMYKTests {
    static let quadrants: [(x: Int, y: Int, rgb: (Int, Int, Int))] = [
        (8, 8, (220, 30, 30)), (24, 8, (30, 200, 60)), (8, 24, (40, 60, 210)), (24, 24, (240, 240, 240)),
    ]

    @Test("Given an Adobe YCCK JPEG without a profile (ImageMagick), the naive inverted-CMYK formula gives back the source colours")
    func ycckWithoutProfile() throws {
        let decoded = try JPEGTestKit.decode("cmyk-adobe.jpg")
        #expect(decoded.bitmap.size == PixelSize(width: 32, height: 32))
        #expect(decoded.bitmap.isOpaque)
        #expect(decoded.bitmap.scanIsOpaque())
        for q in Self.quadrants {
            #expect(
                JPEGTestKit.pixel(decoded.bitmap, x: q.x, y: q.y, isNear: q.rgb, tolerance: 4),
                "at \(q.x),\(q.y): \(JPEGTestKit.rgb(decoded.bitmap, x: q.x, y: q.y))")
        }
    }

    @Test("Given an Adobe CMYK (not YCCK) JPEG without a profile (Pillow), the naive formula gives back the source colours")
    func cmykWithoutProfile() throws {
        let decoded = try JPEGTestKit.decode("cmyk-plain-adobe.jpg")
        for q in Self.quadrants {
            #expect(JPEGTestKit.pixel(decoded.bitmap, x: q.x, y: q.y, isNear: q.rgb, tolerance: 4), "at \(q.x),\(q.y)")
        }
    }

    @Test("Given CMYK stored as plain ink amounts with no Adobe marker, the non-inverted formula gives back the source colours")
    func plainCMYKWithoutAdobeMarker() throws {
        let decoded = try JPEGTestKit.decode("cmyk-plain-no-adobe.jpg")
        for q in Self.quadrants {
            #expect(JPEGTestKit.pixel(decoded.bitmap, x: q.x, y: q.y, isNear: q.rgb, tolerance: 4), "at \(q.x),\(q.y)")
        }
    }

    @Test("The Adobe marker decides the storage convention: stripped from an inverted file, its red reads as the complement")
    func adobeMarkerDecidesInversion() throws {
        let stripped = JPEGTestKit.removingSegments(0xEE, from: try JPEGTestKit.fixture("cmyk-plain-adobe.jpg"))
        let decoded = try JPEGDecoder().decode(EncodedImage(bytes: stripped, sourceName: "stripped.jpg"), options: DecodeOptions())
        // Pillow stored red as inverted (C′, M′, Y′, K′) = (220, 30, 30, 255); read as plain ink, K = 255 is full black.
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 8, y: 8, isNear: (0, 0, 0), tolerance: 4), "\(JPEGTestKit.rgb(decoded.bitmap, x: 8, y: 8))")
    }

    @Test("Given a YCCK JPEG with an embedded CMYK profile, lcms2 converts it to sRGB close to what ImageMagick gives (175,114,77 for the first patch)")
    func cmykWithProfile() throws {
        let decoded = try JPEGTestKit.decode("cmyk-profile.jpg")
        #expect(decoded.info.hasICCProfile)
        #expect(decoded.bitmap.isOpaque)
        #expect(decoded.bitmap.scanIsOpaque())
        // `convert cmyk-profile.jpg -profile srgb.icc`: (175,114,77) (111,149,105) (97,103,160) (199,200,189);
        // the source before CMYK was (180,90,70) (90,150,100) (80,100,160) (200,200,190).
        let expected: [(Int, Int, (Int, Int, Int))] = [(8, 8, (175, 114, 77)), (24, 8, (111, 149, 105)), (8, 24, (97, 103, 160)), (24, 24, (199, 200, 189))]
        for (x, y, rgb) in expected {
            #expect(JPEGTestKit.pixel(decoded.bitmap, x: x, y: y, isNear: rgb, tolerance: 4), "at \(x),\(y): \(JPEGTestKit.rgb(decoded.bitmap, x: x, y: y))")
        }
        // The profile matters: the naive formula on the same pixels gives clearly different colours.
        let naive = try JPEGDecoder().decode(
            EncodedImage(
                bytes: JPEGTestKit.removingSegments(0xE2, from: try JPEGTestKit.fixture("cmyk-profile.jpg")),
                sourceName: "naive.jpg"), options: DecodeOptions())
        #expect(JPEGTestKit.psnr(naive.bitmap, decoded.bitmap) < 30)
    }

    @Test("A CMYK JPEG scaled on load converts the same way (1/2 scale, 16×16)")
    func scaledCMYK() throws {
        let decoded = try JPEGTestKit.decode("cmyk-adobe.jpg", hint: DecodeHint(box: PixelSize(width: 10, height: 10), mode: .fit))
        #expect(decoded.bitmap.size == PixelSize(width: 16, height: 16))
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 4, y: 4, isNear: (220, 30, 30), tolerance: 6))
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 12, y: 12, isNear: (240, 240, 240), tolerance: 6))
    }
}
