import DarkroomCore
import Testing

/// ThumbHash against Evan Wallace's algorithm as the pure-Python `thumbhash` PyPI package computes
/// it (64-bit floats, as the JavaScript reference; its alpha line fixed, see
/// `scripts/placeholder-references.py`, which made these strings).
@Suite("ThumbHash equals the reference package")
struct ThumbHashTests {
    @Test(
        "Given a fixture, when hashed, then the base64 is the reference's",
        arguments: [
            ("gradient", "3hcKLZpwdndwd3d3eGh3d5CBCveI"),
            ("stripes", "3gYGfA5gw4iIiHh4iHh2cJf2iA=="),
            ("translucent", "pSeGFIoooHiGeaK3Z/oooGoPlXaWdniHBw=="),
            ("cutout", "nfuCDQQ3gI+HiMh3iICH+HiICGiIh4CKaA=="),
        ])
    func matchesReference(name: String, expected: String) throws {
        let fixture = try #require(PlaceholderFixtures.all.first { $0.name == name })
        let hash = ThumbHash.encode(rgba: fixture.rgba, width: fixture.width, height: fixture.height)
        #expect(ThumbHash.base64(hash) == expected)
    }

    @Test("base64 pads as the standard alphabet does")
    func base64Padding() {
        #expect(ThumbHash.base64([]) == "")
        #expect(ThumbHash.base64([0xFF]) == "/w==")
        #expect(ThumbHash.base64([0xFF, 0xEE]) == "/+4=")
        #expect(ThumbHash.base64([0x4D, 0x61, 0x6E]) == "TWFu")
    }
}
