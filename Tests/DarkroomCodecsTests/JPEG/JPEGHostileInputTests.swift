import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Testing

@Suite("JPEG hostile and damaged input")
struct JPEGHostileInputTests {
    /// `base` with its SOF's height and width replaced.
    static func withFrameSize(_ base: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var bytes = base
        let sof = try #require(JPEGTestKit.offset(of: 0xC0, in: bytes))
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    @Test("Given a 65000×65000 SOF, readInfo and decode refuse it as tooLarge before allocating any pixel buffer")
    func hugeFrame() throws {
        let bytes = try Self.withFrameSize(JPEGTestKit.fixture("scene-444.jpg"), width: 65000, height: 65000)
        let image = EncodedImage(bytes: bytes, sourceName: "huge.jpg")
        let observer = PixelMemory.Observer()
        PixelMemory.$observer.withValue(observer) {
            #expect(JPEGTestKit.errorCode { _ = try JPEGDecoder().readInfo(image, limits: DecodeLimits()) } == .tooLarge)
            #expect(JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(image, options: DecodeOptions()) } == .tooLarge)
            #expect(
                JPEGTestKit.errorCode {
                    _ = try JPEGDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: false)))
                } == .tooLarge)
        }
        #expect(observer.allocationCount == 0)
    }

    @Test("Given a SOF under the side limit but over 50 MP, decode refuses it as tooLarge with no allocation")
    func tooManyPixels() throws {
        let bytes = try Self.withFrameSize(JPEGTestKit.fixture("scene-444.jpg"), width: 10000, height: 10000)
        let observer = PixelMemory.Observer()
        let thrown = PixelMemory.$observer.withValue(observer) {
            JPEGTestKit.codecError { _ = try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "big.jpg"), options: DecodeOptions()) }
        }
        #expect(thrown?.code == .tooLarge)
        #expect(thrown?.description.contains("big.jpg") == true)
        #expect(thrown?.description.contains("10000x10000") == true)
        #expect(observer.allocationCount == 0)
    }

    @Test("Given a zero-width SOF, readInfo and decode refuse it as invalidDimensions with no allocation")
    func zeroWidth() throws {
        let bytes = try Self.withFrameSize(JPEGTestKit.fixture("scene-444.jpg"), width: 0, height: 64)
        let image = EncodedImage(bytes: bytes, sourceName: "zero.jpg")
        let observer = PixelMemory.Observer()
        PixelMemory.$observer.withValue(observer) {
            #expect(JPEGTestKit.errorCode { _ = try JPEGDecoder().readInfo(image, limits: DecodeLimits()) } == .invalidDimensions)
            #expect(JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(image, options: DecodeOptions()) } == .invalidDimensions)
        }
        #expect(observer.allocationCount == 0)
    }

    @Test("Empty data is .empty; a lone SOI is .truncated")
    func emptyAndTiny() {
        let decoder = JPEGDecoder()
        #expect(JPEGTestKit.errorCode { _ = try decoder.decode(EncodedImage(bytes: [], sourceName: "e.jpg"), options: DecodeOptions()) } == .empty)
        #expect(JPEGTestKit.errorCode { _ = try decoder.readInfo(EncodedImage(bytes: [], sourceName: "e.jpg"), limits: DecodeLimits()) } == .empty)
        #expect(
            JPEGTestKit.errorCode {
                _ = try decoder.decode(EncodedImage(bytes: [0xFF, 0xD8, 0xFF], sourceName: "soi.jpg"), options: DecodeOptions())
            } == .truncated)
    }

    @Test("Given a file cut at every offset, strict decode fails as truncated (or corrupt) and never crashes")
    func truncatedEverywhere() throws {
        let bytes = try JPEGTestKit.fixture("scene-420.jpg")
        let eoiMissingOnly = bytes.count - 2
        for length in stride(from: 3, to: bytes.count - 2, by: 7) where length != eoiMissingOnly {
            let cut = EncodedImage(bytes: Array(bytes[0..<length]), sourceName: "cut.jpg")
            let code = JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(cut, options: DecodeOptions()) }
            #expect(code == .truncated || code == .corrupt, "cut at \(length) of \(bytes.count): \(String(describing: code))")
            // Lenient mode returns what libjpeg recovered (or a clear error), never crashes.
            let lenient = JPEGTestKit.errorCode {
                _ = try JPEGDecoder().decode(cut, options: DecodeOptions(limits: DecodeLimits(strict: false)))
            }
            #expect(lenient == nil || lenient == .truncated || lenient == .corrupt)
        }
    }

    @Test("A cut in the middle of the image data is .truncated in strict mode and decodes to the full size in lenient mode")
    func truncatedScan() throws {
        let bytes = try JPEGTestKit.fixture("scene-420.jpg")
        let sos = try #require(JPEGTestKit.offset(of: 0xDA, in: bytes))
        let cut = EncodedImage(bytes: Array(bytes[0..<(sos + (bytes.count - sos) / 2)]), sourceName: "half.jpg")
        let thrown = JPEGTestKit.codecError { _ = try JPEGDecoder().decode(cut, options: DecodeOptions()) }
        #expect(thrown?.code == .truncated)
        #expect(thrown?.description.hasPrefix("half.jpg: truncated JPEG data") == true)
        let lenient = try JPEGDecoder().decode(cut, options: DecodeOptions(limits: DecodeLimits(strict: false)))
        #expect(lenient.bitmap.size == PixelSize(width: 96, height: 64))
    }

    @Test("A baseline JPEG missing only its final EOI marker decodes in strict mode, identical to the complete file")
    func missingEOIBaseline() throws {
        let bytes = try JPEGTestKit.fixture("scene-420.jpg")
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        let complete = try JPEGTestKit.decode("scene-420.jpg").bitmap
        let withoutEOI = try JPEGDecoder().decode(
            EncodedImage(bytes: Array(bytes.dropLast(2)), sourceName: "noeoi.jpg"),
            options: DecodeOptions()
        ).bitmap
        #expect(JPEGTestKit.psnr(complete, withoutEOI) == 99)
    }

    @Test("A progressive JPEG missing only EOI decodes in strict mode; cut between two scans it is .truncated, lenient accepts it")
    func missingEOIProgressive() throws {
        let bytes = try JPEGTestKit.fixture("scene-progressive.jpg")
        let complete = try JPEGTestKit.decode("scene-progressive.jpg").bitmap
        let noEOI = try JPEGDecoder().decode(EncodedImage(bytes: Array(bytes.dropLast(2)), sourceName: "p.jpg"), options: DecodeOptions())
        #expect(JPEGTestKit.psnr(complete, noEOI.bitmap) == 99)

        // Cut right before the last scan: every remaining scan is whole, so libjpeg alone would not notice.
        var lastScan = 0
        var index = 2
        while let next = JPEGTestKit.offset(of: 0xDA, in: bytes, from: index) {
            lastScan = next
            index = next + 2
        }
        let cut = EncodedImage(bytes: Array(bytes[0..<lastScan]), sourceName: "scans.jpg")
        #expect(JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(cut, options: DecodeOptions()) } == .truncated)
        let lenient = try JPEGDecoder().decode(cut, options: DecodeOptions(limits: DecodeLimits(strict: false)))
        #expect(lenient.bitmap.size == PixelSize(width: 96, height: 64))
    }

    @Test("Trailing bytes after EOI are ignored in strict mode")
    func trailingGarbage() throws {
        let bytes = try JPEGTestKit.fixture("scene-420.jpg") + [UInt8](repeating: 0, count: 100) + Array("trailer".utf8)
        let decoded = try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "t.jpg"), options: DecodeOptions())
        #expect(decoded.bitmap.size == PixelSize(width: 96, height: 64))
    }

    @Test("Given random bytes after FF D8 FF, every decode ends in a CodecError, never a crash")
    func randomAfterSOI() {
        var noise = JPEGTestKit.Noise(state: 7)
        for length in [1, 2, 10, 100, 1000, 5000] {
            for _ in 0..<20 {
                let bytes: [UInt8] = [0xFF, 0xD8, 0xFF] + (0..<length).map { _ in noise.next() }
                let image = EncodedImage(bytes: bytes, sourceName: "random.jpg")
                for strict in [true, false] {
                    let code = JPEGTestKit.errorCode {
                        _ = try JPEGDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: strict)))
                    }
                    #expect(code != nil, "random bytes must not decode (length \(length))")
                }
            }
        }
    }

    @Test("A damaged Huffman table is .corrupt, and the message quotes libjpeg")
    func badHuffmanTable() throws {
        var bytes = try JPEGTestKit.fixture("scene-444.jpg")
        let dht = try #require(JPEGTestKit.offset(of: 0xC4, in: bytes))
        // The 16 code-length counts start after FF C4 LL LL Tc/Th: make them claim 255 codes each.
        for i in 0..<16 { bytes[dht + 5 + i] = 0xFF }
        let thrown = JPEGTestKit.codecError {
            _ = try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "huff.jpg"), options: DecodeOptions())
        }
        #expect(thrown?.code == .corrupt)
        #expect(thrown?.message.contains("libjpeg:") == true)
        #expect(thrown?.source == "huff.jpg")
    }

    @Test("Flipped bits inside the entropy data are an error in strict mode and recovered in lenient mode")
    func corruptEntropyData() throws {
        var bytes = try JPEGTestKit.fixture("scene-444.jpg")
        let sos = try #require(JPEGTestKit.offset(of: 0xDA, in: bytes))
        var noise = JPEGTestKit.Noise(state: 3)
        for i in stride(from: sos + 20, to: bytes.count - 40, by: 9) where bytes[i] != 0xFF && bytes[i - 1] != 0xFF {
            let value = noise.next()
            if value != 0xFF { bytes[i] = value }
        }
        let image = EncodedImage(bytes: bytes, sourceName: "bits.jpg")
        let strict = JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(image, options: DecodeOptions()) }
        #expect(strict == .corrupt || strict == .truncated)
        let lenient = try JPEGDecoder().decode(image, options: DecodeOptions(limits: DecodeLimits(strict: false)))
        #expect(lenient.bitmap.size == PixelSize(width: 96, height: 64))
    }

    @Test("A lossless (SOF3) or 12-bit frame is .unsupported, read from the header")
    func unsupportedProcesses() throws {
        var lossless = try JPEGTestKit.fixture("scene-444.jpg")
        let sof = try #require(JPEGTestKit.offset(of: 0xC0, in: lossless))
        lossless[sof + 1] = 0xC3
        #expect(
            JPEGTestKit.errorCode { _ = try JPEGDecoder().readInfo(EncodedImage(bytes: lossless, sourceName: "l.jpg"), limits: DecodeLimits()) } == .unsupported
        )
        var twelve = try JPEGTestKit.fixture("scene-444.jpg")
        twelve[sof + 4] = 12
        #expect(
            JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(EncodedImage(bytes: twelve, sourceName: "12.jpg"), options: DecodeOptions()) } == .unsupported)
    }

    @Test("Markers with impossible lengths and SOS before SOF are .corrupt")
    func brokenMarkers() throws {
        let base = try JPEGTestKit.fixture("scene-444.jpg")
        let badLength: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01] + Array(base[2...])
        #expect(
            JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(EncodedImage(bytes: badLength, sourceName: "len.jpg"), options: DecodeOptions()) } == .corrupt)
        let sosFirst: [UInt8] = [0xFF, 0xD8] + JPEGTestKit.segment(0xDA, [1, 1, 0, 0, 63, 0]) + [0x12, 0x34, 0xFF, 0xD9]
        #expect(
            JPEGTestKit.errorCode { _ = try JPEGDecoder().decode(EncodedImage(bytes: sosFirst, sourceName: "sos.jpg"), options: DecodeOptions()) } == .corrupt)
        // An HTML page behind a JPEG signature.
        let html = [0xFF, 0xD8, 0xFF] + Array("<html><body>404</body></html>".utf8)
        let error = JPEGTestKit.codecError { _ = try JPEGDecoder().readInfo(EncodedImage(bytes: html, sourceName: "page.jpg"), limits: DecodeLimits()) }
        #expect(error?.code == .corrupt)
        #expect(error?.description == "page.jpg: corrupt JPEG data: 0x3C at byte 3 is not a JPEG marker")
    }
}
