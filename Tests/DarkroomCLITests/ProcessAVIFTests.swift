import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomSources
import Foundation
import Testing

@testable import DarkroomCLI
@testable import DarkroomPipeline

@Suite("darkroom process with AVIF in and out")
struct ProcessAVIFTests {
    @Test("process in.avif 'resize(100x100)' out.avif writes an AVIF of the box's size")
    func endToEnd() async throws {
        let workspace = try ProcessCommandTests.Workspace()
        defer { workspace.remove() }
        try workspace.image("in.avif", .avif, width: 160, height: 120)
        try await ProcessCommandTests.run([workspace.path("in.avif"), "-p", "resize(100x100)", "-o", workspace.path("out.avif")])
        let out = try workspace.decode("out.avif")
        #expect(out.info.format == .avif)
        #expect(out.bitmap.size == PixelSize(width: 100, height: 75))
        try await ProcessCommandTests.run([
            workspace.path("in.avif"), "-p", "resize(100x100)", "-o", workspace.path("fast.avif"), "--avif-speed", "8", "--quality", "60",
        ])
        #expect(try workspace.decode("fast.avif").bitmap.size == PixelSize(width: 100, height: 75))
    }

    @Test("An AVIF result's cache key names the encoder, speed, quantizer and chroma; other formats' keys do not change")
    func cacheKey() throws {
        func key(_ format: ImageFormat?, _ encoding: EncodeOptions = EncodeOptions()) -> String {
            ImageRequest(source: SourceReference("a.jpg"), chain: ProcessorChain(), output: OutputOptions(format: format, encoding: encoding)).outputKey
        }
        #expect(key(.avif).hasSuffix(";frames=all;avif=aom/s6/q13/420"))
        #expect(key(.avif, EncodeOptions(avifSpeed: 8)).hasSuffix(";avif=aom/s8/q13/420"))
        #expect(key(.avif, EncodeOptions(quality: 90)).hasSuffix(";avif=aom/s6/q6/444"))
        #expect(key(.avif, EncodeOptions(quality: 50)) != key(.avif))
        for format in [ImageFormat.jpeg, .png, .webp, nil] {
            #expect(key(format).hasSuffix(";frames=all"))
            #expect(key(format, EncodeOptions(avifSpeed: 3)) == key(format))
        }
    }
}
