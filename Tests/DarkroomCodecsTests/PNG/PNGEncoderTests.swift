import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("PNG encoding")
struct PNGEncoderTests {
    @Test("Given an opaque bitmap, when encoded as PNG and decoded, then the pixels are identical and the file is 8-bit RGB with no metadata")
    func opaqueRoundTrip() throws {
        let bitmap = try PWGTestKit.smoothImage(width: 37, height: 21)
        let png = try PNGEncoder().encode(bitmap, options: EncodeOptions())
        #expect(PWGContainers.pngColorType(png) == 2)
        #expect(png[24] == 8)
        #expect(PWGContainers.pngChunks(png).filter { $0 != "IDAT" } == ["IHDR", "IEND"])
        let decoded = try PNGDecoder().decode(EncodedImage(bytes: png, sourceName: "out.png"), options: DecodeOptions())
        #expect(decoded.bitmap.isOpaque)
        #expect(PWGTestKit.samePixels(decoded.bitmap, bitmap))
    }

    @Test("Given a bitmap with transparency, when encoded as PNG and decoded, then every premultiplied pixel survives exactly")
    func translucentRoundTrip() throws {
        let bitmap = try PWGTestKit.translucentImage(width: 64, height: 9)
        let png = try PNGEncoder().encode(bitmap, options: EncodeOptions())
        #expect(PWGContainers.pngColorType(png) == 6)
        let decoded = try PNGDecoder().decode(EncodedImage(bytes: png, sourceName: "out.png"), options: DecodeOptions())
        #expect(!decoded.bitmap.isOpaque)
        #expect(PWGTestKit.samePixels(decoded.bitmap, bitmap))
    }

    @Test("Given a 50%-alpha red pixel decoded from PNG, when re-encoded, then the file stores straight (255, 0, 0, 128)")
    func storesStraightAlpha() throws {
        let decoded = try PNGDecoder().decode(PWGTestKit.encoded("png/half-red.png"), options: DecodeOptions())
        let png = try PNGEncoder().encode(decoded.bitmap, options: EncodeOptions())
        let straight = try #require(PWGContainers.straightRGBA(png: png))
        #expect(Array(straight.prefix(8)) == [255, 0, 0, 128, 0, 255, 0, 255])
    }

    @Test("Given a bitmap not flagged opaque whose pixels all are, when encoded, then PNG stores RGB without alpha")
    func detectsOpaquePixels() throws {
        var bitmap = try PWGTestKit.smoothImage(width: 8, height: 8)
        bitmap.isOpaque = false
        let png = try PNGEncoder().encode(bitmap, options: EncodeOptions())
        #expect(PWGContainers.pngColorType(png) == 2)
    }

    @Test("Given every premultiplied value, when unpremultiplied for encoding and premultiplied again on decode, then it is unchanged")
    func alphaKernelsRoundTrip() {
        var premultiplied = [UInt8]()
        var straight = [UInt8](repeating: 0, count: 256 * 256 * 4)
        premultiplied.reserveCapacity(256 * 256 * 4)
        for a in 0...255 {
            for c in 0...255 {
                let v = UInt8(min(c, a))
                premultiplied += [v, v, v, UInt8(a)]
            }
        }
        premultiplied.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                AlphaKernels.unpremultiply(src.baseAddress!, to: dst.baseAddress!, pixelCount: 65536)
            }
        }
        // The division-free unpremultiply equals min(255, (c × 255 + a/2) / a) everywhere.
        for i in stride(from: 0, to: straight.count, by: 4) {
            let a = Int(premultiplied[i + 3])
            let c = Int(premultiplied[i])
            let expected = a == 0 ? 0 : min(255, (c * 255 + a / 2) / a)
            if Int(straight[i]) != expected {
                Issue.record("unpremultiply(\(c), \(a)) = \(straight[i]), want \(expected)")
                return
            }
        }
        var again = straight
        _ = again.withUnsafeMutableBufferPointer { AlphaKernels.premultiplyInPlace($0.baseAddress!, pixelCount: 65536) }
        #expect(again == premultiplied)
    }
}
