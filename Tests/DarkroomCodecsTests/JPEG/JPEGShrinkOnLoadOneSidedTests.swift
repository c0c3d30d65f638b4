import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG shrink-on-load for width-only and height-only boxes")
struct JPEGShrinkOnLoadOneSidedTests {
    @Test(
        "A one-sided box's hint (the free side at 65535) shrinks on load by the given side alone",
        arguments: [
            // (box, mode, expected decoded size of the 203×101 fixture)
            (PixelSize.width(16), DecodeHint.Mode.fit, PixelSize(width: 26, height: 13)),  // 16×8 → 1/8
            (PixelSize.height(8), .fit, PixelSize(width: 26, height: 13)),  // 17×8 → 1/8
            (PixelSize.width(60), .fit, PixelSize(width: 102, height: 51)),  // 60×30 → 1/2
            (PixelSize.width(26), .stretch, PixelSize(width: 203, height: 101)),  // the height stays: full
        ])
    func chosenScale(box: PixelSize, mode: DecodeHint.Mode, expected: PixelSize) throws {
        let decoded = try JPEGTestKit.decode(JPEGShrinkOnLoadTests.name, hint: DecodeHint(box: box.bounded, mode: mode))
        #expect(decoded.bitmap.size == expected)
        #expect(decoded.bitmap.logicalSize == PixelSize(width: 203, height: 101))
    }
}
