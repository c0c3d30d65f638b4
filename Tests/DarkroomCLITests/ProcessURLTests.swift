import ArgumentParser
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("darkroom process with URLs")
struct ProcessURLTests {
    @Test("darkroom process fetches an allowed http URL and names the output after its path")
    func fetchesURL() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let png = try Data(contentsOf: URL(fileURLWithPath: try ws.image("src.png", .png, width: 90, height: 60)))
        let server = try TestHTTPServer { request in
            request.path == "/img/cat.png" ? .ok([UInt8](png), contentType: "image/png") : .status(404)
        }
        defer { server.stop() }
        try await ProcessCommandTests.run([
            server.url("/img/cat.png?w=1"), "-p", "downsample(30x30)", "--out", ws.path("out"),
            "--allow-source", server.origin + "/img/", "--cache", ws.path("cache"),
        ])
        let out = try ws.decode("out/cat.png")
        #expect(out.bitmap.size == PixelSize(width: 30, height: 20))
        #expect(server.requestCount("/img/cat.png") == 1)
    }

    @Test("Without --allow-source a loopback URL fails with source.refused and exit status 1")
    func refusedByDefault() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let server = try TestHTTPServer { _ in .ok([0]) }
        defer { server.stop() }
        #expect(await ProcessCommandTests.exitCode([server.url("/a.jpg"), "-o", ws.path("a.jpg")]) == 1)
        #expect(server.connectionCount == 0)
    }
}
