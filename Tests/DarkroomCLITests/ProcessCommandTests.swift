import ArgumentParser
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomStandardProcessors
import DarkroomSystem
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("darkroom process, end to end on real files")
struct ProcessCommandTests {
    /// A fresh temporary directory with a few real images written by Darkroom's own encoders.
    struct Workspace {
        let root: String

        init() throws {
            root = NSTemporaryDirectory() + "darkroom-cli-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }

        func path(_ name: String) -> String { "\(root)/\(name)" }

        /// Writes a `width`×`height` gradient encoded as `format` to `name`.
        @discardableResult
        func image(_ name: String, _ format: ImageFormat, width: Int = 120, height: Int = 80) throws -> String {
            let bitmap = try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
                for y in 0..<height {
                    for x in 0..<width {
                        let i = y * rowBytes + x * 4
                        bytes[i] = UInt8(x * 255 / (width - 1))
                        bytes[i + 1] = UInt8(y * 255 / (height - 1))
                        bytes[i + 2] = 90
                        bytes[i + 3] = 255
                    }
                }
            }
            let data = try CoderRegistry.standard.encoder(for: format).encode(bitmap, options: EncodeOptions(quality: 90))
            try Data(data).write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }

        func decode(_ name: String) throws -> DecodedImage {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
            return try CoderRegistry.standard.decode(EncodedImage(bytes: bytes, sourceName: name))
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A pipeline configuration for paths a person typed: any readable file.
    static var interactiveConfiguration: ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        return configuration
    }

    static func run(_ arguments: [String]) async throws {
        var command = try ProcessCommand.parse(arguments)
        try await command.run()
    }

    static func exitCode(_ arguments: [String]) async -> Int32 {
        do {
            try await run(arguments)
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            return -1
        }
    }

    @Test("One PNG becomes a JPEG thumbnail at -o with the fitted size")
    func singleFile() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let input = try ws.image("wide.png", .png, width: 300, height: 200)
        try await Self.run([input, "-p", "downsample(60x60)", "-o", ws.path("thumb.jpg")])
        let out = try ws.decode("thumb.jpg")
        #expect(out.info.format == .jpeg)
        #expect(out.bitmap.size == PixelSize(width: 60, height: 40))
    }

    @Test("Several inputs go to --out under their base names, and a PNG named .jpg simply works")
    func manyFiles() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let a = try ws.image("a.jpg", .jpeg)
        let b = try ws.image("b.webp", .webp)
        let c = try ws.image("c.jpg", .png)  // a PNG with the wrong name
        try await Self.run([a, b, c, "-p", "resize(40x40, mode: fill)", "--out", ws.path("out"), "-j", "2"])
        #expect(try ws.decode("out/a.jpg").bitmap.size == PixelSize(width: 40, height: 40))
        #expect(try ws.decode("out/b.webp").info.format == .webp)
        #expect(try ws.decode("out/c.png").info.format == .png)
    }

    @Test("A JPEG whose chain adds transparency is written as PNG")
    func roundCornerMakesPNG() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let input = try ws.image("photo.jpg", .jpeg)
        try await Self.run([input, "-p", "roundCorner(10)", "--out", ws.path("out")])
        let out = try ws.decode("out/photo.png")
        #expect(out.info.format == .png)
        #expect(out.bitmap.pixel(x: 0, y: 0).alpha == 0)
        #expect(out.bitmap.pixel(x: 60, y: 40).alpha == 255)
    }

    @Test("One bad file fails alone: the others are written and the exit status is 1")
    func partialFailure() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let good = try ws.image("good.png", .png)
        try Data("<html>not an image</html>".utf8).write(to: URL(fileURLWithPath: ws.path("bad.jpg")))
        let status = await Self.exitCode([good, ws.path("bad.jpg"), "-p", "blur(1)", "--out", ws.path("out")])
        #expect(status == 1)
        #expect(FileManager.default.fileExists(atPath: ws.path("out/good.png")))
        #expect(!FileManager.default.fileExists(atPath: ws.path("out/bad.jpg")))
    }

    @Test("A bad chain is refused with status 2 before any file is read")
    func badChain() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let input = try ws.image("a.png", .png)
        #expect(await Self.exitCode([input, "-p", "rond(4)", "--out", ws.path("out")]) == 2)
        #expect(await Self.exitCode([input, "-p", "blur(-3)", "--out", ws.path("out")]) == 2)
        #expect(!FileManager.default.fileExists(atPath: ws.path("out/a.png")))
    }

    @Test(
        "Out-of-range limits are usage errors, not crashes",
        arguments: [
            ["--max-pixels", "inf"], ["--max-pixels", "1e300"], ["--max-pixels", "1e-300"],
            ["--max-output-pixels", "0"], ["--max-output-dimension", "0"], ["--quality", "101"], ["-j", "0"],
        ])
    func badLimits(flags: [String]) async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let input = try ws.image("a.png", .png)
        #expect(await Self.exitCode([input, "-o", ws.path("b.png")] + flags) == 2)
    }

    @Test("The standard registry suggests roundCorner for rond and reports the column of a bad radius")
    func chainMessages() {
        let registry = StandardProcessors.registry
        #expect {
            _ = try registry.chain(from: "rond(4)")
        } throws: { ($0 as? ChainError)?.description == "unknown processor 'rond' at column 1 — did you mean 'roundCorner'?" }
        #expect {
            _ = try registry.chain(from: "downsample(400x400)|>blur(-3)")
        } throws: { ($0 as? ChainError)?.description == "blur: radius must be > 0 (got -3) at column 27" }
    }

    @Test("Records carry sizes, bytes and per-stage timings")
    func records() async throws {
        let ws = try Workspace()
        defer { ws.remove() }
        let input = try ws.image("a.png", .png, width: 200, height: 100)
        let plan = try ProcessPlan.make(inputs: [input, ws.path("missing.png")], outputFile: nil, outputDirectory: ws.root, format: .webp)
        let runner = ProcessRunner(
            plan: plan, chain: try StandardProcessors.registry.chain(from: "downsample(50x50)"),
            pipeline: ImagePipeline(configuration: Self.interactiveConfiguration),
            output: OutputOptions(format: .webp), inFlight: 2)
        let collected = RecordBox()
        let outcome = await runner.run { collected.append($0) }
        #expect(outcome.succeeded == 1 && outcome.failed == 1)
        let ok = try #require(collected.records.first { $0.succeeded })
        let result = try #require(ok.result)
        #expect(result.width == 50 && result.height == 25 && result.format == "webp")
        #expect(result.bytes > 0)
        #expect((result.ms.decode ?? -1) >= 0 && (result.ms.store ?? -1) >= 0)
        #expect(ok.input?.width == 200)
        #expect(result.cache == .miss)
        #expect(ok.status == "succeeded" && ok.source == input)
        let failed = try #require(collected.records.first { !$0.succeeded })
        #expect(failed.status == "failed")
        #expect(failed.error?.code == "source.not-found")
        #expect(failed.error?.message.contains("missing.png") == true)
    }
}

/// Collects records from the runner's callback.
final class RecordBox: Sendable {
    private let storage = Locked<[ImageRecord]>([])
    func append(_ record: ImageRecord) { storage.withLock { $0.append(record) } }
    var records: [ImageRecord] { storage.withLock { $0 } }
}
