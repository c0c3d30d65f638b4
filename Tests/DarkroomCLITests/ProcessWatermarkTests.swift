import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("darkroom process draws a watermark fetched before the chain runs")
struct ProcessWatermarkTests {
    @Test("smartCrop(80x60)|>sharpen|>watermark(…) works end to end; a missing watermark fails the file")
    func doneMeansChain() async throws {
        let ws = try ProcessCommandTests.Workspace()
        defer { ws.remove() }
        let input = try ws.image("photo.jpg", .jpeg, width: 300, height: 200)
        let logo = try ws.image("logo.png", .png, width: 40, height: 20)
        let chain = #"smartCrop(80x60)|>sharpen|>watermark("\#(logo)", anchor: topLeft, margin: 0, scale: 0.5)"#
        try await ProcessCommandTests.run([input, "-p", chain, "-o", ws.path("out.png")])
        let out = try ws.decode("out.png")
        #expect(out.bitmap.size == PixelSize(width: 80, height: 60))
        // The logo's top-left pixel (red 0, green 0, blue 90) is drawn at the output's top-left.
        let corner = out.bitmap.pixel(x: 0, y: 0)
        #expect(corner.red < 20 && corner.green < 20 && abs(Int(corner.blue) - 90) < 20)

        let missing = #"watermark("\#(ws.path("nope.png"))")"#
        #expect(await ProcessCommandTests.exitCode([input, "-p", missing, "-o", ws.path("bad.png")]) == 1)
        #expect(!FileManager.default.fileExists(atPath: ws.path("bad.png")))
    }
}
