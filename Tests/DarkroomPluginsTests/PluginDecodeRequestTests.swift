import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Testing

/// `decode_ex`, the coder callback added to ABI version 1 after its first release: the host hands
/// it the shrink-on-load target and a thread budget, and a coder compiled before it existed (its
/// `darkroom_coder.struct_size` ends before the member) keeps loading and decoding with `decode`.
@Suite("Plugin coders: decode_ex and older coders")
struct PluginDecodeRequestTests {
    static let extended = Result { try PluginTestKit.directory("decode-ex", defines: ["DECODE_EX": "1"]) }
    static let firstRelease = Result { try PluginTestKit.directory("decode-v1", defines: ["DECODE_EX": "1", "V1_CODER_SIZE": "1"]) }

    private func coders(_ directory: Result<String, any Error>) throws -> CoderRegistry {
        var catalog = PluginCatalog()
        PluginLoader.load(PluginSearchPath(directories: [try directory.get()]), into: &catalog)
        return CoderRegistry(decoders: CoderRegistry.standard.decoders + catalog.coders.decoders, encoders: catalog.coders.encoders)
    }

    private let image = EncodedImage(bytes: PluginCoderTests.tpix(width: 24, height: 12), sourceName: "a.tpix")
    private let hint = DecodeOptions(hint: DecodeHint(box: PixelSize(width: 10, height: 10), mode: .fit))

    @Test("A coder with decode_ex gets the size hint and may decode smaller; the host keeps what it wrote")
    func decodesSmaller() throws {
        let decoded = try coders(Self.extended).decode(image, options: hint)
        #expect(decoded.bitmap.size == PixelSize(width: 12, height: 6))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad == PixelSize(width: 24, height: 12))
        // Pixel (3, 2) of the half-size decode is pixel (6, 4) of the file: (54, 36, 7, 128) straight.
        #expect(decoded.bitmap.premultipliedPixel(x: 3, y: 2) == (27, 18, 4, 128))
        // Without a hint it decodes at full size, through the same callback.
        #expect(try coders(Self.extended).decode(image).bitmap.size == PixelSize(width: 24, height: 12))
    }

    @Test("A coder whose struct_size ends before decode_ex loads, and the host never calls the member it cannot know")
    func firstReleaseCoderKeepsLoading() throws {
        let coders = try coders(Self.firstRelease)
        #expect(coders.decodes(ImageFormat(rawValue: "tpix")))
        // The compiled-in decode_ex would halve it; the host reads only inside struct_size.
        #expect(try coders.decode(image, options: hint).bitmap.size == PixelSize(width: 24, height: 12))
    }

    @Test("The C example, built against this header, still loads and runs")
    func exampleStillLoads() throws {
        let directory = try CPluginCompiler.makeDirectory("invert-abi")
        try CPluginCompiler.compile(CPluginCompiler.invertExample, into: directory, name: "libinvert.so")
        var catalog = PluginTestKit.builtIn
        PluginLoader.load(PluginSearchPath(directories: [directory]), into: &catalog)
        #expect(catalog.processors.all.contains { $0.name == "invert" })
    }
}
