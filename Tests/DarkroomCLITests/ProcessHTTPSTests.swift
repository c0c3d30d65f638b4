import DarkroomChains
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCLI

/// `darkroom process https://…` against a real TLS server (`openssl s_server`).
@Suite("darkroom process with https URLs and --ca-file")
struct ProcessHTTPSTests {
    @Test("darkroom process fetches an https URL whose certificate --ca-file's CA signed, and writes the result")
    func processesHTTPSURL() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let png = try Data(contentsOf: URL(fileURLWithPath: try ws.image("src.png", .png, width: 90, height: 60)))
        let server = try TestTLSServer(files: ["cat.png": [UInt8](png)])
        defer { server.stop() }
        try await ProcessCommandTests.run([
            server.url("/cat.png"), "-p", "downsample(20x20)", "-o", ws.path("out.png"),
            "--allow-source", server.origin + "/", "--ca-file", server.caCertificatePath,
        ])
        let out = try ws.decode("out.png")
        #expect(out.bitmap.size == PixelSize(width: 20, height: 13))
    }

    @Test("Without --ca-file the same https URL fails with exit status 1: verification is on")
    func untrustedCertificateFails() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let png = try Data(contentsOf: URL(fileURLWithPath: try ws.image("src.png", .png, width: 90, height: 60)))
        let server = try TestTLSServer(files: ["cat.png": [UInt8](png)])
        defer { server.stop() }
        let status = await ProcessCommandTests.exitCode([
            server.url("/cat.png"), "-p", "downsample(20x20)",
            "-o", ws.path("out.png"), "--allow-source", server.origin + "/",
        ])
        #expect(status == 1)
        #expect(!FileManager.default.fileExists(atPath: ws.path("out.png")))
    }

    @Test("--ca-file naming a missing file is a usage error (exit status 2)")
    func missingCAFile() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let input = try ws.image("a.png", .png)
        let status = await ProcessCommandTests.exitCode([input, "-o", ws.path("b.png"), "--ca-file", ws.path("nope.pem")])
        #expect(status == 2)
    }
}
