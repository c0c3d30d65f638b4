import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// Zero bytes are the registry's job (`.empty` before any decoder is asked); a decoder called
/// directly with nothing or a few bytes must still fail cleanly, with a code, and allocate nothing.
@Suite("Tiny inputs given to each decoder")
struct TinyInputTests {
    static let decoders: [(String, any ImageDecoding, String)] = [
        ("PNG", PNGDecoder(), "png/rgb8.png"),
        ("WebP", WebPDecoder(), "webp/lossy.webp"),
        ("GIF", GIFDecoder(), "gif/still.gif"),
    ]

    @Test(
        "Given the first 0…15 bytes of a valid file, when decoded or read, then each attempt is truncated and allocates nothing",
        arguments: decoders)
    func tinyPrefixes(name: String, decoder: any ImageDecoding, fixture: String) throws {
        let bytes = try PWGTestKit.fixture(fixture)
        for length in 0..<16 {
            let image = EncodedImage(bytes: Array(bytes.prefix(length)), sourceName: "tiny")
            let result = PWGTestKit.allocations { () throws(CodecError) in _ = try decoder.decode(image, options: DecodeOptions()) }
            #expect(result.error?.code == .truncated, "\(name), \(length) bytes: \(String(describing: result.error))")
            #expect(result.count == 0)
            var infoError: CodecError?
            do { _ = try decoder.readInfo(image, limits: DecodeLimits()) } catch { infoError = error }
            #expect(infoError?.code == .truncated, "\(name) readInfo, \(length) bytes")
        }
    }

    @Test(
        "Given bytes of another format, when each decoder is asked directly, then none claims them and each fails without allocating",
        arguments: decoders)
    func wrongFormat(name: String, decoder: any ImageDecoding, fixture: String) throws {
        let html = Array("<!DOCTYPE html><html><body>not an image</body></html>".utf8)
        #expect(!decoder.canDecode(html))
        let result = PWGTestKit.allocations { () throws(CodecError) in
            _ = try decoder.decode(EncodedImage(bytes: html, sourceName: "page.jpg"), options: DecodeOptions())
        }
        #expect(result.error != nil)
        #expect(result.count == 0)
    }
}
