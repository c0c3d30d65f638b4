import DarkroomChains
import DarkroomCore
import Foundation
import Testing

/// Helpers for the `trim`, `extend` and `pixelate` tests: `vips find_trim`'s answer, and a CC0
/// sample photo read through `vips` (so the tests need no image codecs).
enum CanvasTestSupport {
    /// The rectangle `vips find_trim` finds in `input` (opaque, written as PPM) against
    /// `background` with `threshold`.
    static func vipsFindTrim(_ input: Bitmap, background: RGBAColor, threshold: Double) throws -> PixelRect {
        let directory = try GeometryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("in.ppm")
        try GeometryTestSupport.writePPM(input, to: inURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GeometryTestSupport.executable(named: "vips")))
        process.arguments = [
            "find_trim", inURL.path, "--threshold", "\(threshold)",
            "--background", "\(background.red) \(background.green) \(background.blue)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, numbers.count == 4 else {
            throw GeometryTestSupport.ToolFailure(message: "vips find_trim printed '\(text)'")
        }
        return PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `../shared/samples/<name>` next to the repository, when that folder is there.
    static func samplePath(_ name: String) -> String? {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = repository.deletingLastPathComponent().appendingPathComponent("shared/samples/\(name)").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The sample photo `name` as an opaque bitmap, converted by `vips copy`.
    static func samplePhoto(_ name: String) throws -> Bitmap {
        let path = try #require(samplePath(name))
        let directory = try GeometryTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ppm = directory.appendingPathComponent("photo.ppm")
        try GeometryTestSupport.run("vips", ["copy", path, ppm.path])
        return try GeometryTestSupport.readPPM(ppm)
    }
}
