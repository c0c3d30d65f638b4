import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@Suite("ImagePipeline against a real HTTP server")
struct ImagePipelineHTTPTests {
    /// A configuration whose policy allows exactly `server` (a loopback address).
    static func configuration(allowing server: TestHTTPServer, memoryBytes: Int = 64 << 20, disk: DiskCache? = nil) -> ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy.allowedSourcePrefixes = [server.origin + "/"]
        configuration.memoryCacheBytes = memoryBytes
        configuration.diskCache = disk
        return configuration
    }

    @Test("Given a slow server, 20 concurrent requests for one URL make one server hit")
    func coalescing() async throws {
        let jpeg = try TestImages.gradient(.jpeg, width: 160, height: 90, tint: 120)
        let server = try TestHTTPServer { request in
            usleep(1_000_000)  // keep the first fetch in flight while the others arrive, even on a loaded machine
            return request.path == "/photo.jpg" ? .ok(jpeg) : .status(404)
        }
        defer { server.stop() }
        // No memory or disk cache: only coalescing can keep this to one hit.
        let pipeline = ImagePipeline(configuration: Self.configuration(allowing: server, memoryBytes: 0))
        let request = ImageRequest(source: SourceReference(server.url("/photo.jpg")), chain: try PipelineTestSupport.chain("downsample(40x40)"))
        let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
            for _ in 0..<20 { group.addTask { try await pipeline.retrieve(request) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(Set(results.map(\.bytes)).count == 1)
        #expect(server.requestCount("/photo.jpg") == 1)
    }

    @Test("A second chain on the same URL does not download again, in this process or the next")
    func originalsAreReused() async throws {
        let dir = try TestImages.makeDirectory("pipeline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try TestImages.gradient(.jpeg, width: 160, height: 90, tint: 120)
        let server = try TestHTTPServer { _ in .ok(jpeg) }
        defer { server.stop() }
        let disk = try DiskCache(directory: "\(dir)/cache")
        let url = SourceReference(server.url("/photo.jpg"))

        let pipeline = ImagePipeline(configuration: Self.configuration(allowing: server, disk: disk))
        let first = try await pipeline.retrieve(ImageRequest(source: url, chain: try PipelineTestSupport.chain("downsample(40x40)")))
        #expect(first.origin == .miss && first.sourceOrigin == .network)
        let second = try await pipeline.retrieve(ImageRequest(source: url, chain: try PipelineTestSupport.chain("blur(2)")))
        #expect(second.origin == .miss && second.sourceOrigin == .memory)
        #expect(server.requestCount("/photo.jpg") == 1)

        // A new process on the same shared cache: the original comes from disk.
        let other = ImagePipeline(configuration: Self.configuration(allowing: server, disk: disk))
        let third = try await other.retrieve(ImageRequest(source: url, chain: try PipelineTestSupport.chain("blackWhite")))
        #expect(third.sourceOrigin == .disk)
        let repeated = try await other.retrieve(ImageRequest(source: url, chain: try PipelineTestSupport.chain("downsample(40x40)")))
        #expect(repeated.origin == .disk && repeated.bytes == first.bytes)
        #expect(server.requestCount("/photo.jpg") == 1)
    }

    @Test("With the default policy a loopback URL is refused and the server sees no connection")
    func defaultPolicyRefusesLoopback() async throws {
        let server = try TestHTTPServer { _ in .ok([1, 2, 3]) }
        defer { server.stop() }
        let pipeline = ImagePipeline()
        await #expect {
            _ = try await pipeline.retrieve(ImageRequest(source: SourceReference(server.url("/x.jpg")), chain: ProcessorChain()))
        } throws: { ($0 as? SourceError)?.code == .refused }
        #expect(server.connectionCount == 0)
    }

    @Test("A 404 fails permanently and is remembered; the server is not asked again")
    func notFoundRemembered() async throws {
        let server = try TestHTTPServer { _ in .status(404) }
        defer { server.stop() }
        let pipeline = ImagePipeline(configuration: Self.configuration(allowing: server))
        let request = ImageRequest(source: SourceReference(server.url("/gone.jpg")), chain: ProcessorChain())
        for _ in 0..<3 {
            await #expect {
                _ = try await pipeline.retrieve(request)
            } throws: { ($0 as? SourceError)?.code == .notFound && ($0 as? SourceError)?.isTransient == false }
        }
        #expect(server.requestCount("/gone.jpg") == 1)
    }
}
