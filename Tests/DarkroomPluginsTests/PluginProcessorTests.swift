import DarkroomCache
import DarkroomChains
import DarkroomCore
import DarkroomPipeline
import DarkroomPlugins
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@Suite("Running plugin processors")
struct PluginProcessorTests {
    static let directory = Result { try PluginTestKit.directory("processors") }

    private func registry() throws -> ProcessorRegistry {
        PluginTestKit.catalog(try Self.directory.get()).processors
    }

    @Test("A plugin processor gets premultiplied pixels and writes the host's output bitmap")
    func pixels() throws {
        let input = try PluginTestKit.bitmap(alpha: 200)
        let output = try registry().chain(from: "negate").process(input)
        #expect(PluginTestKit.pixels(output) == PluginTestKit.negated(input))
        #expect(output.isOpaque == false)
        let opaque = try registry().chain(from: "negate").process(try PluginTestKit.bitmap())
        #expect(opaque.isOpaque)
    }

    @Test("output_size decides the output's size, and the arguments reach the callbacks")
    func outputSize() throws {
        let output = try registry().chain(from: "shrink(3)").process(try PluginTestKit.bitmap(width: 10, height: 6))
        #expect(output.size == PixelSize(width: 4, height: 2))
        let tagged = try registry().chain(from: "tag(1, color: #FF000080, size: 3x2)").process(try PluginTestKit.bitmap())
        #expect(tagged.size == PixelSize(width: 3, height: 2))
        #expect(tagged.pixel(x: 2, y: 1) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(tagged.isOpaque == false)
    }

    @Test("A plugin processor's identifier carries its module and version; its canonical text does not")
    func identifiers() throws {
        let chain = try registry().chain(from: "tag(3)|>blur(2)")
        #expect(chain.canonicalText == "tag(3, color: #00FF00FF, size: 1x1, strength: 0.5, shape: square)|>blur(2)")
        #expect(chain.identifier.hasPrefix("tag.v2[testkit 1.0.0](3, color: #00FF00FF, size: 1x1, strength: 0.5, shape: square)|>blur.v1(2)"))
        #expect(!chain.identifier.contains("@"))
    }

    @Test("A plugin's argument errors read exactly like a built-in's: message, column and suggestion")
    func argumentErrors() throws {
        let registry = try registry()
        func message(_ text: String) -> String {
            do {
                _ = try registry.chain(from: text)
                return "no error"
            } catch { return error.description }
        }
        #expect(message("blur(2)|>tag(30)") == "tag: level must be in 0…10 (got 30) at column 14")
        #expect(message("tag(1, strenght: 0.2)") == "tag: unknown argument 'strenght' at column 8 — did you mean 'strength'?")
        #expect(message("tag(1, shape: circel)") == "tag: shape must be one of square, circle (got 'circel') at column 15 — did you mean 'circle'?")
        #expect(message("tagg(1)") == "unknown processor 'tagg' at column 1 — did you mean 'tag'?")
        #expect(message("tag") == "tag: missing level (a whole number in 0…10) at column 4")
        // The built-in's message for the same mistake, for comparison.
        #expect(message("blur(2, radiu: 3)") == "blur: unknown argument 'radiu' at column 9 — did you mean 'radius'?")
    }

    @Test("A plugin's error becomes plugin.failed with its message; transient when the plugin says so")
    func errors() throws {
        let registry = try registry()
        let input = try PluginTestKit.bitmap()
        func failure(_ chain: String) throws -> PluginFailure {
            do {
                _ = try registry.chain(from: chain).process(input)
            } catch let failure as PluginFailure {
                return failure
            }
            throw PluginFailure(subject: "test", message: "did not fail")
        }
        let permanent = try failure("fail")
        #expect(permanent.errorCode == "plugin.failed")
        #expect(!permanent.isTransient)
        #expect(permanent.description == "plugin processor 'fail' (testkit 1.0.0) failed: refusing 9x6 on purpose")
        let transient = try failure("fail(transient)")
        #expect(transient.isTransient)
        #expect(transient.message == "upstream busy, try later")
        #expect(try failure("fail(silent)").message == "failed without a message")
        #expect(try failure("fail(weird)").message == "(unknown status 7, taken as a failure)")
    }

    @Test("The output a plugin asks for is checked against the image's limits before it is allocated")
    func outputLimits() throws {
        let limited = try Bitmap(width: 4, height: 4, limits: BitmapLimits(maxPixelCount: 1000))
        #expect(throws: BitmapError.self) { try registry().chain(from: "tag(1, size: 100x100)").process(limited) }
    }

    @Test("Many threads calling one plugin processor at once each get their own correct pixels")
    func concurrentCalls() async throws {
        let chain = try registry().chain(from: "negate|>shrink(1)")
        let pool = BlockingWorkPool(threadCount: 8)
        defer { pool.shutdown() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let input = try PluginTestKit.bitmap(width: 50 + index, height: 40, seed: UInt8(index), alpha: UInt8(128 + index))
                    let output = try await pool.run { try chain.process(input) }
                    #expect(PluginTestKit.pixels(output) == PluginTestKit.negated(input))
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("A new plugin version gives a new cache key, so results of the old version are not reused")
    func versionRetiresCache() async throws {
        let old = try PluginTestKit.directory("v1")
        let new = try PluginTestKit.directory("v2", defines: ["MODULE_VERSION": PluginTestKit.quoted("1.1.0")])
        let scratch = try TestImages.makeDirectory("plugin-cache")
        let source = scratch + "/in.png"
        try TestImages.write(try TestImages.gradient(.png, width: 32, height: 24), to: source)
        let cache = try DiskCache(directory: scratch + "/cache")

        func render(with directory: String) async throws -> CacheOutcome {
            var configuration = ImagePipeline.Configuration()
            configuration.diskCache = cache
            configuration.memoryCacheBytes = 0
            configuration.sourcePolicy.fileRoots = nil
            let pipeline = ImagePipeline(configuration: configuration)
            let chain = try PluginTestKit.catalog(directory).processors.chain(from: "negate")
            return try await pipeline.retrieve(ImageRequest(source: SourceReference(source), chain: chain)).origin
        }
        #expect(try await render(with: old) == .miss)
        #expect(try await render(with: old) == .disk)
        #expect(try await render(with: new) == .miss)
        #expect(try await render(with: new) == .disk)
    }
}
