import DarkroomCodecs
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

/// A HEIC photo through the `darkroom` binary, with the HEIC coder module in a plugins directory
/// and without it.
@Suite("darkroom with the HEIC module, as a real process")
struct HEICModuleCommandTests {
    /// A work directory with `photo.heic` (the 64×43 fixture) and `plugins/darkroom-heic.so`.
    private func workspace() throws -> String {
        let dir = try WorkerCLITestKit.makeDirectory("heic")
        let fixture = PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIC/plain-64x43.heic"
        try WorkerCLITestKit.write(Array(try Data(contentsOf: URL(fileURLWithPath: fixture))), to: "\(dir)/photo.heic")
        try FileManager.default.createDirectory(atPath: "\(dir)/plugins", withIntermediateDirectories: true)
        chmod("\(dir)/plugins", 0o755)
        chmod(dir, 0o755)
        try CPluginCompiler.compile(CPluginCompiler.heicModule, packages: ["libheif"], into: "\(dir)/plugins", name: CoderRegistry.heicModuleFile)
        return dir
    }

    @Test("process --plugins reads a HEIC with the module and writes the resized JPEG")
    func processHEIC() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(["process", "photo.heic", "-p", "resize(32x32)", "-o", "out.jpg", "--plugins", "plugins"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        let decoded = try WorkerCLITestKit.decode("\(dir)/out.jpg")
        #expect(decoded.info.format == .jpeg)
        #expect(decoded.bitmap.width == 32 && (21...22).contains(decoded.bitmap.height))
    }

    @Test("process --keep exif,xmp carries a HEIC's Exif item and XMP into the JPEG, orientation reset to 1 (read back by exiftool)")
    func keepsHEICMetadata() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let fixture = PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIC/exif-orientation-6-64x43.heic"
        try WorkerCLITestKit.write(Array(try Data(contentsOf: URL(fileURLWithPath: fixture))), to: "\(dir)/tagged.heic")
        let run = try await WorkerCLITestKit.run(
            ["process", "tagged.heic", "-p", "resize(32x32)", "-o", "out.jpg", "--keep", "exif,xmp", "--plugins", "plugins"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        let exiftool = Process()
        exiftool.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        exiftool.arguments = ["-s", "-n", "-Orientation", "-XMPToolkit", "\(dir)/out.jpg"]
        let pipe = Pipe()
        exiftool.standardOutput = pipe
        try exiftool.run()
        let tags = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exiftool.waitUntilExit()
        // The pixels were not rotated (only irot/imir orient a HEIF), and the EXIF says so.
        #expect(tags.contains("Orientation                     : 1"), "\(tags)")
        #expect(tags.contains("XMPToolkit"), "\(tags)")
        #expect(try WorkerCLITestKit.decode("\(dir)/out.jpg").bitmap.width == 32)
    }

    @Test("Without the module, process refuses the HEIC with image.needs-module, naming the module to load")
    func refusedWithoutModule() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(["run", "photo.heic", "-p", "resize(32x32)", "--out", "out", "--json"], in: dir)
        #expect(run.status != 0)
        #expect(run.output.contains("image.needs-module"), "stdout: \(run.output) stderr: \(run.error)")
        #expect((run.output + run.error).contains(CoderRegistry.heicModuleFile))
    }
}
