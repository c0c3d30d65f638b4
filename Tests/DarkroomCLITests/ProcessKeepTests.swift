import DarkroomCodecs
import DarkroomCore
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("darkroom process --keep")
struct ProcessKeepTests {
    /// The Adobe RGB profile of a codec fixture, as Darkroom's decoder keeps it.
    static func adobeRGB() throws -> [UInt8] {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DarkroomCodecsTests/Fixtures/jpeg/adobergb.jpg")
        let bytes = [UInt8](try Data(contentsOf: fixture))
        return try #require(try JPEGDecoder().decode(EncodedImage(bytes: bytes, sourceName: "adobergb.jpg"), options: DecodeOptions(keep: [.icc])).metadata.icc)
    }

    @Test("Given a PNG tagged Adobe RGB, --keep icc writes the profile into the output; without it the output is untagged sRGB")
    func keepsProfile() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let profile = try Self.adobeRGB()
        try ws.image("plain.png", .png)
        let plain = try ws.decode("plain.png").bitmap
        let tagged = try PNGEncoder().encode(plain, options: EncodeOptions(embedded: ImageMetadata(icc: profile)))
        try Data(tagged).write(to: URL(fileURLWithPath: ws.path("tagged.png")))

        try await ProcessCommandTests.run([ws.path("tagged.png"), "-p", "downsample(60x40)", "-o", ws.path("kept.webp"), "--keep", "icc"])
        try await ProcessCommandTests.run([ws.path("tagged.png"), "-p", "downsample(60x40)", "-o", ws.path("converted.webp")])
        let options = DecodeOptions(keep: [.icc])
        let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.path("kept.webp"))))
        let converted = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ws.path("converted.webp"))))
        #expect(try WebPDecoder().decode(EncodedImage(bytes: kept, sourceName: "kept"), options: options).metadata.icc == profile)
        #expect(try WebPDecoder().decode(EncodedImage(bytes: converted, sourceName: "converted"), options: options).metadata.icc == nil)
    }

    @Test("An unknown item, or gps alone, is bad usage (exit 2) and writes nothing")
    func refusesBadLists() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let input = try ws.image("in.png", .png)
        #expect(await ProcessCommandTests.exitCode([input, "-o", ws.path("a.png"), "--keep", "gps"]) == 2)
        #expect(await ProcessCommandTests.exitCode([input, "-o", ws.path("b.png"), "--keep", "icc,iptc"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: ws.path("a.png")))
    }
}
