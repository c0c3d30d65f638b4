import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("Outputs read from the roots without following links")
struct OutputFilesTests {
    @Test("A file under the root is read; a link on the way, a path outside the roots or with '..' is refused; a missing cache file is gone")
    func rules() throws {
        let root = try TestImages.makeDirectory("api-output")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        for folder in ["out/a", "cache", "secret"] { try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        try Data("image".utf8).write(to: URL(fileURLWithPath: root + "/out/a/x.png"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root + "/secret/s.png"))
        try fm.createSymbolicLink(atPath: root + "/out/link", withDestinationPath: root + "/secret")
        try fm.createSymbolicLink(atPath: root + "/out/a/y.png", withDestinationPath: root + "/secret/s.png")
        let files = OutputFiles(outputRoot: root + "/out/", cacheRoot: root + "/cache", maxBytes: 1 << 20)

        #expect(try files.read(root + "/out/a/x.png").bytes == Array("image".utf8))
        for path in [root + "/out/link/s.png", root + "/out/a/y.png", root + "/secret/s.png", root + "/out/a/../../secret/s.png", "/etc/passwd"] {
            #expect(Self.code(reading: path, with: files) == .outputRefused, "\(path)")
        }
        #expect(Self.code(reading: root + "/cache/gone.webp", with: files) == .outputGone)
        #expect(Self.code(reading: root + "/out/a/gone.webp", with: files) == .outputGone)
    }

    /// The code reading `path` fails with; nil when it is read.
    static func code(reading path: String, with files: OutputFiles) -> APIError.Code? {
        do {
            _ = try files.read(path)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("A non-loopback listener without --behind-tls-proxy is refused; with it, allowed")
    func plainHTTPBeyondLoopback() throws {
        do {
            try APIConfiguration(host: "0.0.0.0").validate()
            Issue.record("a plain-HTTP listener on 0.0.0.0 was accepted")
        } catch {
            #expect(error.code == .tlsRequired)
        }
        try APIConfiguration(host: "0.0.0.0", behindTLSProxy: true).validate()
        try APIConfiguration(host: "127.0.0.1").validate()
        try APIConfiguration(host: "::1").validate()
        let address = try APIConfiguration.address("[::1]:8080")
        #expect(address.host == "::1" && address.port == 8080)
        #expect(throws: APIError.self) { try APIConfiguration.address("localhost") }
    }
}
