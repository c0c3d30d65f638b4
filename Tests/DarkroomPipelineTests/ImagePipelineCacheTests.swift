import DarkroomCache
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Testing

@Suite("ImagePipeline: caches and origins")
struct ImagePipelineCacheTests {
    @Test("Given no disk cache, the first retrieve computes and the second comes from memory")
    func memoryHit() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestImages.write(try TestImages.gradient(.png, width: 160, height: 90, tint: 120), to: "\(dir)/a.png")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(source: SourceReference("\(dir)/a.png"), chain: try PipelineTestSupport.chain("downsample(40x40)"))

        let first = try await pipeline.retrieve(request)
        #expect(first.origin == .miss && first.sourceOrigin == .local)
        #expect(first.size == PixelSize(width: 40, height: 23) && first.format == .png)
        #expect(first.cachePath == nil)

        let second = try await pipeline.retrieve(request)
        #expect(second.origin == .memory)
        #expect(second.bytes == first.bytes && second.size == first.size)
    }

    @Test("Given a disk cache, a new process (a new pipeline) finds the result on disk")
    func diskHit() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestImages.write(try TestImages.gradient(.jpeg, width: 160, height: 90, tint: 120), to: "\(dir)/a.jpg")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
        let request = ImageRequest(source: SourceReference("\(dir)/a.jpg"), chain: try PipelineTestSupport.chain("resize(30x30, mode: fill)|>roundCorner(5)"))

        let first = try await ImagePipeline(configuration: configuration).retrieve(request)
        #expect(first.origin == .miss)
        #expect(first.format == .png)  // a JPEG with round corners is stored as PNG
        let path = try #require(first.cachePath)
        #expect(FileManager.default.fileExists(atPath: path))

        let second = try await ImagePipeline(configuration: configuration).retrieve(request)
        #expect(second.origin == .disk)
        #expect(second.bytes == first.bytes && second.size == PixelSize(width: 30, height: 30) && second.format == .png)
    }

    @Test("Editing a file makes a new original, so the cached result is not reused")
    func editedFileIsNewSource() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/a.png"
        try TestImages.write(try TestImages.gradient(.png, width: 100, height: 50, tint: 120), to: path)
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(source: SourceReference(path), chain: try PipelineTestSupport.chain("downsample(20x20)"))
        #expect(try await pipeline.retrieve(request).size == PixelSize(width: 20, height: 10))
        try TestImages.write(try TestImages.gradient(.png, width: 50, height: 100, tint: 120), to: path)
        let after = try await pipeline.retrieve(request)
        #expect(after.origin == .miss && after.size == PixelSize(width: 10, height: 20))
    }

    @Test("A data: URI is a source like any other")
    func dataURI() async throws {
        let png = try TestImages.gradient(.png, width: 8, height: 8, tint: 120)
        let uri = "data:image/png;base64," + Data(png).base64EncodedString()
        let result = try await ImagePipeline().retrieve(ImageRequest(source: SourceReference(uri), chain: try PipelineTestSupport.chain("blackWhite")))
        #expect(result.size == PixelSize(width: 8, height: 8) && result.format == .png)
    }

    @Test("Queued-job policy refuses files outside the allowed roots")
    func fileRootsEnforced() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestImages.write(try TestImages.gradient(.png, width: 160, height: 90, tint: 120), to: "\(dir)/a.png")
        let pipeline = ImagePipeline()  // default policy: no file roots
        await #expect {
            _ = try await pipeline.retrieve(ImageRequest(source: SourceReference("\(dir)/a.png"), chain: ProcessorChain()))
        } throws: { ($0 as? SourceError)?.code == .refused }
    }
}

@Suite("ImagePipeline: damaged cache entries")
struct ImagePipelineDamagedCacheTests {
    @Test("A cached result that is not an image is dropped and recomputed")
    func damagedEntryRecomputed() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestImages.write(try TestImages.gradient(.png, width: 160, height: 90, tint: 120), to: "\(dir)/a.png")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        configuration.memoryCacheBytes = 0
        configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
        let request = ImageRequest(source: SourceReference("\(dir)/a.png"), chain: try PipelineTestSupport.chain("downsample(40x40)"))
        let first = try await ImagePipeline(configuration: configuration).retrieve(request)
        let path = try #require(first.cachePath)
        try Data("garbage, not an image".utf8).write(to: URL(fileURLWithPath: path))

        let again = try await ImagePipeline(configuration: configuration).retrieve(request)
        #expect(again.origin == .miss)
        #expect(again.bytes == first.bytes)
        let third = try await ImagePipeline(configuration: configuration).retrieve(request)
        #expect(third.origin == .disk && third.bytes == first.bytes)
    }
}
