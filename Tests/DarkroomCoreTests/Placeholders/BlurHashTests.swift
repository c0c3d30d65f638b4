import DarkroomCore
import Testing

/// BlurHash against Wolt's algorithm as the `blurhash` PyPI package computes it; the strings come
/// from `scripts/placeholder-references.py` (run once; see it for versions).
@Suite("BlurHash equals the reference package")
struct BlurHashTests {
    @Test(
        "Given a fixture, when hashed with the reference's components, then the string is the reference's",
        arguments: [
            ("gradient", 4, 3, "LxH27z2owuX4mDWUjrf6gGfhfRfi"),
            ("gradient", 1, 1, "00H27z"),
            (
                "gradient", 9, 9,
                "|xH27z2owuX4a_ocWnobWnmDWUjrf6fPf6fRf6fSgGfhfRfifRfkfSflfSn%WnjsfRfSfRfRfRfPe-fPfRfSfRfRfPfOfOobWojufSfRfOfOfPfRe-fQfSfSfPfOfOfRfSocWqjvfPfOfPfRfSfReofQfSfPfOfRfSfSfO"
            ),
            ("gradient", 3, 5, "cxH27z2owumDWUjrgGfhfRn%Wnjse-fPfR"),
            ("stripes", 4, 3, "L:GkbKRWS3S$m#f+fja$f.fkfQfR"),
            // Alpha is skipped, as the reference skips it: the straight colours count.
            ("translucent", 4, 3, "L#He,z2kwuX9rWWTjxf4dbe[fNe?"),
            ("cutout", 4, 3, "LkHbeuru1JbssnjaWWfj1JXP$iag"),
        ])
    func matchesReference(name: String, x: Int, y: Int, expected: String) throws {
        let fixture = try #require(PlaceholderFixtures.all.first { $0.name == name })
        let hash = BlurHash.encode(rgba: fixture.rgba, width: fixture.width, height: fixture.height, componentsX: x, componentsY: y)
        #expect(hash == expected)
    }

    @Test("Given the default components, then the hash is 4×3: 28 characters")
    func defaultLength() {
        let fixture = PlaceholderFixtures.gradient
        #expect(BlurHash.defaultComponents.x == 4 && BlurHash.defaultComponents.y == 3)
        #expect(BlurHash.encode(rgba: fixture.rgba, width: fixture.width, height: fixture.height).count == 28)
    }
}
