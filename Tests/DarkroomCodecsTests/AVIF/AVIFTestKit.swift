import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Foundation
import Testing

/// Fixtures for the AVIF tests (made by Fixtures/avif/make-avif-fixtures.sh; see its README).
enum AVIFTestKit {
    /// The bytes of `Fixtures/avif/<name>`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return try [UInt8](Data(contentsOf: folder.appendingPathComponent("avif").appendingPathComponent(name)))
    }

    static func image(_ name: String) throws -> EncodedImage {
        EncodedImage(bytes: try fixture(name), sourceName: name)
    }

    static func decode(_ name: String, limits: DecodeLimits = DecodeLimits()) throws -> DecodedImage {
        try AVIFDecoder().decode(image(name), options: DecodeOptions(limits: limits))
    }

    /// The 64×43 source every fixture was encoded from (`rgb.rgba`, straight RGBA8).
    static func reference() throws -> Bitmap {
        let pixels = try fixture("rgb.rgba")
        return try StraightAlpha.bitmap(width: 64, height: 43, limits: BitmapLimits(), source: "rgb.rgba") { bytes, bytesPerRow in
            for y in 0..<43 {
                for x in 0..<64 * 4 { bytes[y * bytesPerRow + x] = pixels[y * 64 * 4 + x] }
            }
        }
    }

    /// The bytes with the primary item's `ispe` (the first one) set to `width`×`height`.
    static func patchingISPE(_ bytes: [UInt8], width: UInt32, height: UInt32) throws -> [UInt8] {
        let tag = Array("ispe".utf8)
        let at = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == tag })
        var patched = bytes
        for (offset, value) in [(at + 8, width), (at + 12, height)] {
            for n in 0..<4 { patched[offset + n] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(n))) }
        }
        return patched
    }

    /// The bytes with every `stsz` declaring `count` samples (a constant-size table: no entries).
    static func patchingSampleCount(_ bytes: [UInt8], to count: UInt32) -> [UInt8] {
        let tag = Array("stsz".utf8)
        var patched = bytes
        for at in 0..<bytes.count - 16 where Array(bytes[at..<at + 4]) == tag {
            for n in 0..<4 { patched[at + 12 + n] = UInt8(truncatingIfNeeded: count >> (24 - 8 * UInt32(n))) }
        }
        return patched
    }

    /// The code `body` fails with, or nil when it succeeds (or throws something else).
    static func code(_ body: () throws -> Void) -> CodecError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? CodecError)?.code
        }
    }

    /// Mean absolute difference over the colour channels of two equal-sized bitmaps.
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        var sum = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.premultipliedPixel(x: x, y: y)
                let q = b.premultipliedPixel(x: x, y: y)
                sum += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(sum) / Double(a.width * a.height * 3)
    }
}
