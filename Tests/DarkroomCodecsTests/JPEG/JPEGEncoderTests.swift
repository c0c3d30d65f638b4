import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG encoding")
struct JPEGEncoderTests {
    /// The SOF segment's marker byte and its components' sampling bytes.
    static func frame(of jpeg: [UInt8]) -> (marker: UInt8, sampling: [UInt8])? {
        for marker: UInt8 in [0xC0, 0xC1, 0xC2] {
            if let at = JPEGTestKit.offset(of: marker, in: jpeg) {
                let count = Int(jpeg[at + 9])
                return (marker, (0..<count).map { jpeg[at + 10 + 3 * $0 + 1] })
            }
        }
        return nil
    }

    @Test("Encode then decode keeps the picture: PSNR above 32 dB at quality 90")
    func roundTrip() throws {
        let source = try JPEGTestKit.ppm("scene-96x64.ppm")
        let bytes = try JPEGEncoder().encode(source, options: EncodeOptions(quality: 90))
        #expect(JPEGDecoder().canDecode(bytes))
        let decoded = try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "rt.jpg"), options: DecodeOptions())
        #expect(decoded.bitmap.size == source.size)
        #expect(JPEGTestKit.psnr(decoded.bitmap, source) > 32)
    }

    @Test("Higher quality makes a larger file and a closer picture")
    func qualityAffectsSize() throws {
        let source = try JPEGTestKit.ppm("scene-96x64.ppm")
        var sizes: [Int] = []
        var psnrs: [Double] = []
        for quality in [10, 50, 95] {
            let bytes = try JPEGEncoder().encode(source, options: EncodeOptions(quality: quality))
            sizes.append(bytes.count)
            psnrs.append(JPEGTestKit.psnr(try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "q"), options: DecodeOptions()).bitmap, source))
        }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "sizes \(sizes)")
        #expect(psnrs[0] < psnrs[1] && psnrs[1] < psnrs[2], "PSNR \(psnrs)")
    }

    @Test("The progressive flag writes SOF2; the default writes baseline SOF0; both subsample chroma 4:2:0")
    func progressiveAndSubsampling() throws {
        let source = try JPEGTestKit.ppm("scene-96x64.ppm")
        let baseline = try JPEGEncoder().encode(source, options: EncodeOptions(quality: 80))
        let progressive = try JPEGEncoder().encode(source, options: EncodeOptions(quality: 80, progressive: true))
        #expect(Self.frame(of: baseline)?.marker == 0xC0)
        #expect(Self.frame(of: progressive)?.marker == 0xC2)
        #expect(Self.frame(of: baseline)?.sampling == [0x22, 0x11, 0x11])
        #expect(Self.frame(of: progressive)?.sampling == [0x22, 0x11, 0x11])
        let decoded = try JPEGDecoder().decode(EncodedImage(bytes: progressive, sourceName: "p.jpg"), options: DecodeOptions())
        #expect(JPEGTestKit.psnr(decoded.bitmap, source) > 30)
    }

    @Test("No metadata is written: no Exif (APP1) and no ICC profile (APP2)")
    func noMetadata() throws {
        let decoded = try JPEGTestKit.decode("orientation-6.jpg")
        let bytes = try JPEGEncoder().encode(decoded.bitmap, options: EncodeOptions())
        #expect(JPEGTestKit.offset(of: 0xE1, in: bytes) == nil || JPEGTestKit.offset(of: 0xE1, in: bytes)! > JPEGTestKit.offset(of: 0xDA, in: bytes)!)
        let info = try JPEGDecoder().readInfo(EncodedImage(bytes: bytes, sourceName: "o.jpg"), limits: DecodeLimits())
        #expect(info.orientation == .up)
        #expect(!info.hasICCProfile)
        #expect(info.storedSize == PixelSize(width: 64, height: 48))
    }

    @Test("A transparent bitmap is flattened onto the background: white by default, the given colour otherwise")
    func flattening() throws {
        // Left half fully transparent, right half red at 50 % (premultiplied 128, 0, 0, 128).
        let bitmap = try Bitmap(width: 32, height: 16, isOpaque: false) { buffer, rowBytes in
            for y in 0..<16 {
                for x in 0..<32 {
                    let i = y * rowBytes + x * 4
                    if x < 16 {
                        buffer[i] = 0
                        buffer[i + 1] = 0
                        buffer[i + 2] = 0
                        buffer[i + 3] = 0
                    } else {
                        buffer[i] = 128
                        buffer[i + 1] = 0
                        buffer[i + 2] = 0
                        buffer[i + 3] = 128
                    }
                }
            }
        }
        let onWhite = try JPEGDecoder().decode(
            EncodedImage(bytes: try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 95)), sourceName: "w"),
            options: DecodeOptions()
        ).bitmap
        #expect(JPEGTestKit.pixel(onWhite, x: 4, y: 8, isNear: (255, 255, 255), tolerance: 3))
        #expect(JPEGTestKit.pixel(onWhite, x: 28, y: 8, isNear: (255, 127, 127), tolerance: 6))
        let onBlack = try JPEGDecoder().decode(
            EncodedImage(bytes: try JPEGEncoder().encode(bitmap, options: EncodeOptions(quality: 95, background: .black)), sourceName: "b"),
            options: DecodeOptions()
        ).bitmap
        #expect(JPEGTestKit.pixel(onBlack, x: 4, y: 8, isNear: (0, 0, 0), tolerance: 3))
        #expect(JPEGTestKit.pixel(onBlack, x: 28, y: 8, isNear: (128, 0, 0), tolerance: 6))
    }

    @Test("Quality outside 1…100 is refused as encodeFailed")
    func qualityRange() throws {
        let source = try Bitmap(width: 8, height: 8, fill: .white)
        #expect(JPEGTestKit.errorCode { _ = try JPEGEncoder().encode(source, options: EncodeOptions(quality: 0)) } == .encodeFailed)
        #expect(JPEGTestKit.errorCode { _ = try JPEGEncoder().encode(source, options: EncodeOptions(quality: 101)) } == .encodeFailed)
        #expect(try JPEGEncoder().encode(source, options: EncodeOptions(quality: 1)).count > 100)
        #expect(try JPEGEncoder().encode(source, options: EncodeOptions(quality: 100)).count > 100)
    }

    @Test("A 1×1 image round-trips")
    func tiny() throws {
        let source = try Bitmap(width: 1, height: 1, fill: RGBAColor(red: 10, green: 200, blue: 30))
        let decoded = try JPEGDecoder().decode(
            EncodedImage(bytes: try JPEGEncoder().encode(source, options: EncodeOptions(quality: 100)), sourceName: "1"),
            options: DecodeOptions()
        ).bitmap
        #expect(decoded.size == PixelSize(width: 1, height: 1))
        #expect(JPEGTestKit.pixel(decoded, x: 0, y: 0, isNear: (10, 200, 30), tolerance: 8))
    }
}
