import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG shrink-on-load")
struct JPEGShrinkOnLoadTests {
    /// The 203×101 fixture: odd sides, so every scale rounds up (1/8 → 26×13, 1/4 → 51×26, 1/2 → 102×51).
    static let name = "scene-203x101.jpg"

    @Test("Without a hint the image decodes at full size and records no pre-shrink size")
    func noHint() throws {
        let decoded = try JPEGTestKit.decode(Self.name)
        #expect(decoded.bitmap.size == PixelSize(width: 203, height: 101))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == nil)
    }

    @Test(
        "The smallest DCT scale that still covers 1.5× the hint's target is chosen, with sides rounded up",
        arguments: [
            // (box, mode, expected decoded size); the target must fit 1.5 times into the result
            (PixelSize(width: 16, height: 16), DecodeHint.Mode.fit, PixelSize(width: 26, height: 13)),  // 16×8 → 1/8
            (PixelSize(width: 25, height: 25), .fit, PixelSize(width: 51, height: 26)),  // 25×13 → 1/4
            (PixelSize(width: 30, height: 30), .fit, PixelSize(width: 51, height: 26)),  // 30×15 → 1/4
            (PixelSize(width: 60, height: 60), .fit, PixelSize(width: 102, height: 51)),  // 60×30 → 1/2
            (PixelSize(width: 16, height: 16), .fill, PixelSize(width: 51, height: 26)),  // 33×16 → 1/4
            (PixelSize(width: 26, height: 33), .stretch, PixelSize(width: 102, height: 51)),  // 26×33 → 1/2
            (PixelSize(width: 26, height: 50), .stretch, PixelSize(width: 203, height: 101)),  // 26×50 → full
        ])
    func chosenScale(box: PixelSize, mode: DecodeHint.Mode, expected: PixelSize) throws {
        let decoded = try JPEGTestKit.decode(Self.name, hint: DecodeHint(box: box, mode: mode))
        #expect(decoded.bitmap.size == expected)
        let full = PixelSize(width: 203, height: 101)
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == (expected == full ? nil : full))
        #expect(decoded.bitmap.logicalSize == PixelSize(width: 203, height: 101))
        #expect(decoded.info.storedSize == PixelSize(width: 203, height: 101))
    }

    @Test("A hint larger than half the image decodes at full size, with no pre-shrink size")
    func largeHint() throws {
        let decoded = try JPEGTestKit.decode(Self.name, hint: DecodeHint(box: PixelSize(width: 150, height: 150), mode: .fit))
        #expect(decoded.bitmap.size == PixelSize(width: 203, height: 101))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == nil)
    }

    @Test("A 1/8 decode shows the same picture as a full decode reduced by 8×8 block averages")
    func scaledPixelsMatchFullDecode() throws {
        let full = try JPEGTestKit.decode(Self.name).bitmap
        let small = try JPEGTestKit.decode(Self.name, hint: DecodeHint(box: PixelSize(width: 16, height: 16), mode: .fit)).bitmap
        #expect(small.size == PixelSize(width: 26, height: 13))
        let averaged = try Bitmap(width: 25, height: 12, isOpaque: true) { buffer, rowBytes in
            for y in 0..<12 {
                for x in 0..<25 {
                    var sums = [0, 0, 0]
                    for dy in 0..<8 {
                        for dx in 0..<8 {
                            let p = full.premultipliedPixel(x: x * 8 + dx, y: y * 8 + dy)
                            sums[0] += Int(p.r)
                            sums[1] += Int(p.g)
                            sums[2] += Int(p.b)
                        }
                    }
                    for c in 0..<3 { buffer[y * rowBytes + x * 4 + c] = UInt8(sums[c] / 64) }
                    buffer[y * rowBytes + x * 4 + 3] = 255
                }
            }
        }
        // Compare the 25×12 whole blocks (the 26th column and 13th row are partial blocks).
        let cropped = try Bitmap(width: 25, height: 12, isOpaque: true) { buffer, rowBytes in
            for y in 0..<12 {
                for x in 0..<25 {
                    let p = small.premultipliedPixel(x: x, y: y)
                    buffer[y * rowBytes + x * 4] = p.r
                    buffer[y * rowBytes + x * 4 + 1] = p.g
                    buffer[y * rowBytes + x * 4 + 2] = p.b
                    buffer[y * rowBytes + x * 4 + 3] = 255
                }
            }
        }
        #expect(JPEGTestKit.psnr(cropped, averaged) > 30)
    }

    @Test("Given orientation 6 (stored 48×64, upright 64×48), the upright hint is mapped to stored axes before choosing the scale")
    func orientationSwapsAxes() throws {
        // Upright target 10×5 is stored 5×10, which needs 7.5×15 with the 1.5× headroom: 1/8 gives
        // 6×8 (too small), 1/4 gives 12×16, which covers it.
        let decoded = try JPEGTestKit.decode("orientation-6.jpg", hint: DecodeHint(box: PixelSize(width: 10, height: 5), mode: .stretch))
        #expect(decoded.bitmap.size == PixelSize(width: 16, height: 12))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == PixelSize(width: 64, height: 48))
        // Still upright: red top-left, white bottom-right.
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 1, y: 1, isNear: (220, 30, 30), tolerance: 12))
        #expect(JPEGTestKit.pixel(decoded.bitmap, x: 14, y: 10, isNear: (240, 240, 240), tolerance: 12))
    }
}
