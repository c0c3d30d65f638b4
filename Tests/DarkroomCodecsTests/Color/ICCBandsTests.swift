import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("Colour conversion split in bands")
struct ICCBandsTests {
    @Test(
        "Given an embedded profile (RGB, CMYK, RGB with alpha), when converted in 1, 2, 3 or 7 bands, then the pixels are the same bytes",
        arguments: ["jpeg/adobergb.jpg", "jpeg/cmyk-profile.jpg", "png/rgb8-adobergb.png", "webp/icc.webp"])
    func bandsGiveIdenticalPixels(fixture: String) throws {
        let image = try PWGTestKit.encoded(fixture)
        let decodes = try [1, 2, 3, 7].map { bands in
            try RowBands.$forcedCount.withValue(bands) {
                try CoderRegistry.standard.decode(image, options: DecodeOptions()).bitmap.withUnsafeBytes { Array($0) }
            }
        }
        #expect(Set(decodes).count == 1, "\(fixture)")
    }

    @Test("Given translucent pixels under a profile, when converted in 1 or 3 bands, then the pixels are the same bytes")
    func translucentBands() throws {
        let transform = try ICCProfileConverter.cachedTransform(
            profile: ICCProfileConverterTests.profile(in: "adobergb.jpg"), layout: .rgba, sourceName: "test")
        let original = try PWGTestKit.translucentImage(width: 61, height: 37)
        let converted = [1, 3].map { bands in
            RowBands.$forcedCount.withValue(bands) {
                var bitmap = original
                ICCProfileConverter.apply(transform, to: &bitmap)
                return bitmap.withUnsafeBytes { Array($0) }
            }
        }
        #expect(converted[0] == converted[1])
        #expect(converted[0] != original.withUnsafeBytes { Array($0) }, "the profile should change the pixels")
    }
}
