import DarkroomChains
import DarkroomCore
import DarkroomSystem
import Testing

/// The dominant colour against a straightforward count, and the placeholders of a `Bitmap`.
@Suite("Dominant colour and a bitmap's placeholders")
struct DominantColorTests {
    /// The definition, written plainly: bins by the top 3 bits over pixels with alpha ≥ 128 (all
    /// when none), the most populated (lowest key on a tie), the mean rounded half up.
    static func straightforward(_ fixture: PlaceholderFixtures.Fixture) -> String {
        var pixels: [(Int, Int, Int, Int)] = []
        for y in 0..<fixture.height { for x in 0..<fixture.width { pixels.append(fixture.pixel(x, y)) } }
        let counted = pixels.contains { $0.3 >= 128 } ? pixels.filter { $0.3 >= 128 } : pixels
        var bins: [Int: [(Int, Int, Int, Int)]] = [:]
        for p in counted { bins[(p.0 / 32) * 64 + (p.1 / 32) * 8 + p.2 / 32, default: []].append(p) }
        let best = bins.keys.sorted().max { bins[$0]!.count < bins[$1]!.count || (bins[$0]!.count == bins[$1]!.count && $0 > $1) }!
        let members = bins[best]!
        func mean(_ values: [Int]) -> Int { (values.reduce(0, +) + members.count / 2) / members.count }
        let rgb = [mean(members.map(\.0)), mean(members.map(\.1)), mean(members.map(\.2))]
        return "#" + rgb.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test("Given each fixture, then the dominant colour is the straightforward count's", arguments: PlaceholderFixtures.all.map(\.name))
    func matchesCount(name: String) throws {
        let fixture = try #require(PlaceholderFixtures.all.first { $0.name == name })
        #expect(DominantColor.hex(rgba: fixture.rgba, width: fixture.width, height: fixture.height) == Self.straightforward(fixture))
    }

    @Test("Given a half red, a third blue image, then the colour is red, in lower-case hex")
    func majorityWins() {
        let rgba = (0..<6).flatMap { i -> [UInt8] in i < 3 ? [250, 10, 10, 255] : i < 5 ? [0, 0, 255, 255] : [0, 255, 0, 255] }
        #expect(DominantColor.hex(rgba: rgba, width: 3, height: 2) == "#fa0a0a")
    }

    @Test("Given an opaque bitmap inside 100×100, then its placeholders are the reference strings")
    func bitmapPlaceholders() throws {
        let fixture = PlaceholderFixtures.gradient
        let premultiplied = fixture.rgba  // opaque: straight and premultiplied are equal
        let bitmap = try Bitmap(width: fixture.width, height: fixture.height, premultipliedRGBA: premultiplied, isOpaque: true)
        let found = try bitmap.placeholders(Set(PlaceholderKind.allCases))
        #expect(found.blurhash == "LxH27z2owuX4mDWUjrf6gGfhfRfi")
        #expect(found.thumbhash == "3hcKLZpwdndwd3d3eGh3d5CBCveI")
        #expect(found.color == Self.straightforward(fixture))
        #expect(try bitmap.placeholders([.color]) == Placeholders(color: found.color))
        #expect(try bitmap.placeholders([]).isEmpty)
    }

    @Test("Given a 300×150 bitmap, then the placeholders come from a 100×50 thumbnail")
    func thumbnailSize() throws {
        let bitmap = try Bitmap(width: 300, height: 150, fill: RGBAColor(red: 12, green: 200, blue: 99))
        #expect(bitmap.placeholderThumbnailSize == PixelSize(width: 100, height: 50))
        let tall = try Bitmap(width: 7, height: 1000, fill: RGBAColor(red: 12, green: 200, blue: 99))
        #expect(tall.placeholderThumbnailSize == PixelSize(width: 1, height: 100))
        let found = try bitmap.placeholders([.color, .thumbhash])
        #expect(found.color == "#0cc863")
        #expect(found.thumbhash != nil && found.blurhash == nil)
    }
}
