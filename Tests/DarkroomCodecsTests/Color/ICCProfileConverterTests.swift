import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("ICC profiles to sRGB")
struct ICCProfileConverterTests {
    /// The profile embedded in a fixture.
    static func profile(in name: String) throws -> [UInt8] {
        let header = try JPEGMarkerScanner.scan(JPEGTestKit.fixture(name), source: name)
        guard case .complete(let bytes) = header.iccProfile else {
            Issue.record("\(name) has no complete profile")
            return []
        }
        return bytes
    }

    /// The fixture with its APP2 segments replaced by `payloads`.
    static func withICCSegments(_ name: String, _ payloads: [[UInt8]]) throws -> EncodedImage {
        var bytes = JPEGTestKit.removingSegments(0xE2, from: try JPEGTestKit.fixture(name))
        for payload in payloads.reversed() { bytes = JPEGTestKit.inserting(JPEGTestKit.segment(0xE2, payload), into: bytes) }
        return EncodedImage(bytes: bytes, sourceName: name)
    }

    static func chunk(_ sequence: UInt8, of count: UInt8, _ bytes: some Collection<UInt8>) -> [UInt8] {
        Array("ICC_PROFILE".utf8) + [0, sequence, count] + Array(bytes)
    }

    static let muted: [(x: Int, y: Int, rgb: (Int, Int, Int))] = [
        (8, 8, (180, 90, 70)), (24, 8, (90, 150, 100)), (8, 24, (80, 100, 160)), (24, 24, (200, 200, 190)),
    ]

    @Test("Given a JPEG whose pixels are Adobe RGB and tagged so, decoding converts them back to the sRGB source colours")
    func adobeRGB() throws {
        let decoded = try JPEGTestKit.decode("adobergb.jpg")
        #expect(decoded.info.hasICCProfile)
        for q in Self.muted {
            #expect(
                JPEGTestKit.pixel(decoded.bitmap, x: q.x, y: q.y, isNear: q.rgb, tolerance: 3),
                "at \(q.x),\(q.y): \(JPEGTestKit.rgb(decoded.bitmap, x: q.x, y: q.y))")
        }
        // Without the profile the raw Adobe RGB values show: the reddish patch is clearly off.
        let raw = try JPEGDecoder().decode(try Self.withICCSegments("adobergb.jpg", []), options: DecodeOptions())
        let p = JPEGTestKit.rgb(raw.bitmap, x: 8, y: 8)
        #expect(abs(p.0 - 180) + abs(p.1 - 90) + abs(p.2 - 70) > 15, "raw \(p)")
    }

    @Test("An sRGB profile is recognised as sRGB and changes no pixel; Adobe RGB is not sRGB")
    func sRGBIsIdentity() throws {
        #expect(ICCProfileConverter.isSRGB(try Self.profile(in: "srgb-tagged.jpg")))
        #expect(!ICCProfileConverter.isSRGB(try Self.profile(in: "adobergb.jpg")))
        #expect(!ICCProfileConverter.isSRGB(try Self.profile(in: "cmyk-profile.jpg")))
        #expect(!ICCProfileConverter.isSRGB([1, 2, 3]))
        let tagged = try JPEGTestKit.decode("srgb-tagged.jpg").bitmap
        let untagged = try JPEGDecoder().decode(try Self.withICCSegments("srgb-tagged.jpg", []), options: DecodeOptions()).bitmap
        #expect(JPEGTestKit.psnr(tagged, untagged) == 99)
    }

    @Test("A grey JPEG with a grey profile decodes to equal channels, matching vips icc_transform (108, 134, 100, 199)")
    func grayProfile() throws {
        let decoded = try JPEGTestKit.decode("gray-profile.jpg")
        let expected = [(8, 8, 108), (24, 8, 134), (8, 24, 100), (24, 24, 199)]
        for (x, y, v) in expected {
            let p = decoded.bitmap.premultipliedPixel(x: x, y: y)
            #expect(p.r == p.g && p.g == p.b)
            #expect(abs(Int(p.r) - v) <= 2, "at \(x),\(y): \(p)")
        }
    }

    @Test("A profile split over several APP2 chunks stored out of order gives the same pixels as one chunk")
    func chunkedProfile() throws {
        let profile = try Self.profile(in: "adobergb.jpg")
        let third = profile.count / 3
        let parts = [profile[0..<third], profile[third..<(2 * third)], profile[(2 * third)...]]
        let split = try Self.withICCSegments("adobergb.jpg", [Self.chunk(3, of: 3, parts[2]), Self.chunk(1, of: 3, parts[0]), Self.chunk(2, of: 3, parts[1])])
        let whole = try JPEGTestKit.decode("adobergb.jpg").bitmap
        #expect(JPEGTestKit.psnr(try JPEGDecoder().decode(split, options: DecodeOptions()).bitmap, whole) == 99)
    }

    @Test("Strict: a corrupt profile or ICC chunk nonsense fails as colorProfile naming the file; lenient decodes as if untagged")
    func brokenProfiles() throws {
        let profile = try Self.profile(in: "adobergb.jpg")
        var garbled = profile
        for i in stride(from: 128, to: garbled.count, by: 3) { garbled[i] = 0xA5 }  // tag table and data destroyed
        let cases: [(String, [[UInt8]])] = [
            ("garbage bytes", [Self.chunk(1, of: 1, [UInt8](repeating: 7, count: 300))]),
            ("garbled tags", [Self.chunk(1, of: 1, garbled)]),
            ("sequence 0", [Self.chunk(0, of: 1, profile)]),
            ("missing chunk", [Self.chunk(1, of: 2, profile)]),
            ("repeated chunk", [Self.chunk(1, of: 1, profile), Self.chunk(1, of: 1, profile)]),
            ("CMYK profile on RGB", [Self.chunk(1, of: 1, try Self.profile(in: "cmyk-profile.jpg"))]),
        ]
        let untagged = try JPEGDecoder().decode(try Self.withICCSegments("adobergb.jpg", []), options: DecodeOptions()).bitmap
        for (label, payloads) in cases {
            let image = try Self.withICCSegments("adobergb.jpg", payloads)
            let observer = PixelMemory.Observer()
            let error = PixelMemory.$observer.withValue(observer) {
                JPEGTestKit.codecError { _ = try JPEGDecoder().decode(image, options: DecodeOptions()) }
            }
            #expect(error?.code == .colorProfile, "\(label)")
            #expect(error?.source == "adobergb.jpg", "\(label)")
            #expect(observer.allocationCount == 0, "\(label): refused before decoding pixels")
            let lenient = try JPEGDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: false)))
            #expect(JPEGTestKit.psnr(lenient.bitmap, untagged) == 99, "\(label)")
            #expect(try JPEGDecoder().readInfo(image, limits: DecodeLimits()).hasICCProfile, "\(label)")
        }
    }

    @Test("convertToSRGB on a premultiplied bitmap converts the straight colour and keeps alpha")
    func premultipliedBitmap() throws {
        let profile = try Self.profile(in: "adobergb.jpg")
        // Opaque reference: Adobe RGB (160, 90, 72) → sRGB.
        var opaque = try Bitmap(width: 2, height: 1, fill: RGBAColor(red: 160, green: 90, blue: 72))
        try ICCProfileConverter.convertToSRGB(&opaque, profile: profile, sourceName: "o")
        let reference = opaque.pixel(x: 0, y: 0)
        #expect(reference != RGBAColor(red: 160, green: 90, blue: 72))
        // The same colour at alpha 128, stored premultiplied.
        var translucent = try Bitmap(width: 2, height: 1, fill: RGBAColor(red: 160, green: 90, blue: 72, alpha: 128))
        #expect(!translucent.isOpaque)
        try ICCProfileConverter.convertToSRGB(&translucent, profile: profile, sourceName: "t")
        let converted = translucent.pixel(x: 1, y: 0)
        #expect(converted.alpha == 128)
        #expect(abs(Int(converted.red) - Int(reference.red)) <= 2)
        #expect(abs(Int(converted.green) - Int(reference.green)) <= 2)
        #expect(abs(Int(converted.blue) - Int(reference.blue)) <= 2)
    }

    @Test("convertToSRGB refuses a CMYK profile and bytes that are no profile, as colorProfile")
    func refusals() throws {
        var bitmap = try Bitmap(width: 1, height: 1, fill: .white)
        let cmyk = try Self.profile(in: "cmyk-profile.jpg")
        #expect(JPEGTestKit.errorCode { try ICCProfileConverter.convertToSRGB(&bitmap, profile: cmyk, sourceName: "x") } == .colorProfile)
        #expect(JPEGTestKit.errorCode { try ICCProfileConverter.convertToSRGB(&bitmap, profile: [], sourceName: "x") } == .colorProfile)
        #expect(
            JPEGTestKit.errorCode { try ICCProfileConverter.convertToSRGB(&bitmap, profile: [UInt8](repeating: 0, count: 500), sourceName: "x") }
                == .colorProfile)
        #expect(bitmap.pixel(x: 0, y: 0) == .white)
    }

    @Test("The transform cache is bounded: the least recently used profile is evicted, a used one stays")
    func cacheEviction() throws {
        let cache = ICCTransformCache(capacity: 2)
        let adobe = try Self.profile(in: "adobergb.jpg")
        let srgb = try Self.profile(in: "srgb-tagged.jpg")
        let cmyk = try Self.profile(in: "cmyk-profile.jpg")
        let first = try cache.transform(profile: adobe, layout: .rgba).get()
        _ = try cache.transform(profile: srgb, layout: .rgba).get()
        #expect(cache.count == 2)
        #expect(try cache.transform(profile: adobe, layout: .rgba).get() === first, "a hit returns the same transform")
        _ = try cache.transform(profile: cmyk, layout: .invertedCMYK).get()  // evicts sRGB, the least recently used
        #expect(cache.count == 2)
        #expect(try cache.transform(profile: adobe, layout: .rgba).get() === first)
        #expect(ICCTransformCache(capacity: 1).transform(profile: [0, 1], layout: .rgba).isFailure)
    }

    @Test("Many tasks converting with one cached transform at once all get the same pixels")
    func concurrentUse() async throws {
        let profile = try Self.profile(in: "adobergb.jpg")
        let source = try JPEGTestKit.decode("scene-444.jpg").bitmap
        var expected = source
        try ICCProfileConverter.convertToSRGB(&expected, profile: profile, sourceName: "e")
        let reference = expected
        try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var copy = source
                    try ICCProfileConverter.convertToSRGB(&copy, profile: profile, sourceName: "c")
                    return JPEGTestKit.psnr(copy, reference)
                }
            }
            for try await psnr in group { #expect(psnr == 99) }
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
