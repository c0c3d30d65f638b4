import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomTestSupport
import Foundation
import Testing

/// Plugins through the `darkroom` binary: `--plugins`, `DARKROOM_PLUGIN_PATH`, `process`, `run`
/// and `plugins`, with the example C plugin of the guide and the test plugin.
@Suite("darkroom with plugins, as a real process")
struct PluginCommandTests {
    /// A work directory with `in.png` (an opaque 40×30 gradient) and a `plugins` directory holding
    /// the C example (`invert`) and the test plugin (`negate`, `fail`, …).
    private func workspace() throws -> String {
        let dir = try WorkerCLITestKit.makeDirectory("plugins")
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.png, width: 40, height: 30), to: "\(dir)/in.png")
        try FileManager.default.createDirectory(atPath: "\(dir)/plugins", withIntermediateDirectories: true)
        chmod("\(dir)/plugins", 0o755)
        chmod(dir, 0o755)
        try CPluginCompiler.compile(CPluginCompiler.invertExample, into: "\(dir)/plugins", name: "libinvert.so")
        try CPluginCompiler.compile(CPluginCompiler.testPlugin, into: "\(dir)/plugins", name: "libtestkit.so")
        return dir
    }

    /// Every pixel of `output` is the colour inverse of `input`'s (both opaque).
    private func expectInverted(_ output: String, of input: String) throws {
        let source = try WorkerCLITestKit.decode(input).bitmap
        let result = try WorkerCLITestKit.decode(output).bitmap
        #expect(result.size == source.size)
        var mismatches = 0
        for y in 0..<source.height {
            for x in 0..<source.width {
                let a = source.pixel(x: x, y: y)
                let b = result.pixel(x: x, y: y)
                if b != RGBAColor(red: 255 - a.red, green: 255 - a.green, blue: 255 - a.blue) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test("process --plugins runs the example C plugin's processor in a chain and writes its pixels")
    func processWithPlugin() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(["process", "in.png", "-p", "invert", "-o", "out.png", "--plugins", "plugins"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        try expectInverted("\(dir)/out.png", of: "\(dir)/in.png")
    }

    @Test("run finds plugins through DARKROOM_PLUGIN_PATH and its embedded worker runs them")
    func runWithPluginPath() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(
            ["run", "in.png", "-p", "invert(amount: 1)", "--out", "out"], in: dir,
            environment: ["DARKROOM_PLUGIN_PATH": "/nonexistent:\(dir)/plugins"])
        #expect(run.status == 0, "stderr: \(run.error)")
        // The missing directory is reported and the rest still load.
        #expect(run.error.contains("darkroom: warning: plugin /nonexistent refused: not a directory"))
        try expectInverted("\(dir)/out/in.png", of: "\(dir)/in.png")
    }

    @Test("A plugin's error fails only its job, with the plugin's message and plugin.failed; the other jobs succeed")
    func pluginErrorFailsOnlyItsJob() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.png, width: 20, height: 10), to: "\(dir)/small.png")
        let jobs = """
            {"source": "in.png", "chain": "negate"}
            {"source": "small.png", "chain": "fail"}
            {"source": "in.png", "chain": "invert(0.5)", "id": "second"}
            """
        try WorkerCLITestKit.write(Array(jobs.utf8), to: "\(dir)/jobs.txt")
        let run = try await WorkerCLITestKit.run(
            ["run", "--from", "jobs.txt", "-p", "negate", "--out", "out", "--json", "--plugins", "plugins"], in: dir)
        #expect(run.status == 1)
        let records = try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 3)
        let failed = try #require(records.first { ($0["source"] as? String) == "\(dir)/small.png" })
        let error = try #require(failed["error"] as? [String: Any])
        #expect(error["code"] as? String == "plugin.failed")
        #expect(error["message"] as? String == "plugin processor 'fail' (testkit 1.0.0) failed: refusing 20x10 on purpose")
        #expect(records.filter { ($0["status"] as? String) == "succeeded" }.count == 2)
    }

    @Test("plugins lists built-in and loaded modules; a refused plugin is listed with its reason and exits 1")
    func pluginsListing() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let good = try await WorkerCLITestKit.run(["plugins", "--plugins", "plugins"], in: dir)
        #expect(good.status == 0, "stderr: \(good.error)")
        #expect(good.output.contains("module example-c 1.0.0  (\(dir)/plugins/libinvert.so)"))
        #expect(good.output.contains("  invert(amount: 1)   [v1]"))
        #expect(good.output.contains("module standard 0.1.0  (built in)"))

        try CPluginCompiler.compile(CPluginCompiler.testPlugin, defines: ["ABI_VERSION": "7"], into: "\(dir)/plugins", name: "libold.so")
        let refused = try await WorkerCLITestKit.run(["plugins", "--plugins", "plugins", "--json"], in: dir)
        #expect(refused.status == 1)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(refused.output.utf8)) as? [String: Any])
        let modules = try #require(listing["modules"] as? [[String: Any]])
        #expect(modules.map { $0["name"] as? String } == ["standard", "standard-providers", "standard-coders", "example-c", "testkit"])
        let processors = try #require(listing["processors"] as? [[String: Any]])
        let invert = try #require(processors.first { $0["name"] as? String == "invert" })
        #expect(invert["plugin"] as? String == "example-c")
        #expect(invert["signature"] as? String == "invert(amount: 1)")
        let refusals = try #require(listing["refused"] as? [[String: Any]])
        #expect(refusals.map { $0["path"] as? String } == ["\(dir)/plugins/libold.so"])
    }

    @Test("A plugin's scheme is fetched only with --allow-plugin-scheme, and then through the plugin's provider")
    func pluginScheme() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let source = "testfile:\(dir)/in.png"
        let refused = try await WorkerCLITestKit.run(["process", source, "-p", "negate", "-o", "out.png", "--plugins", "plugins"], in: dir)
        #expect(refused.status == 1)
        #expect(refused.error.contains("[source.refused]"))
        #expect(refused.error.contains("allow it with --allow-plugin-scheme testfile"))

        let allowed = try await WorkerCLITestKit.run(
            ["process", source, "-p", "invert", "-o", "out.png", "--plugins", "plugins", "--allow-plugin-scheme", "testfile"], in: dir)
        #expect(allowed.status == 0, "stderr: \(allowed.error)")
        try expectInverted("\(dir)/out.png", of: "\(dir)/in.png")
    }

    @Test("A plugin's format is read by sniffing and written with --format or the output's extension")
    func pluginFormat() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let written = try await WorkerCLITestKit.run(["process", "in.png", "-o", "out.tpix", "--plugins", "plugins"], in: dir)
        #expect(written.status == 0, "stderr: \(written.error)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/out.tpix")))
        #expect(bytes.prefix(4) == Array("TPIX".utf8)[...])
        #expect(bytes.count == 12 + 40 * 30 * 4)

        let back = try await WorkerCLITestKit.run(["process", "out.tpix", "-p", "invert", "-o", "back.png", "--plugins", "plugins"], in: dir)
        #expect(back.status == 0, "stderr: \(back.error)")
        try expectInverted("\(dir)/back.png", of: "\(dir)/in.png")

        let run = try await WorkerCLITestKit.run(
            ["run", "in.png", "-p", "negate", "--format", "tpix", "--out", "tp", "--plugins", "plugins"], in: dir)
        #expect(run.status == 0, "stderr: \(run.error)")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/tp/in.tpix"))

        let unknown = try await WorkerCLITestKit.run(["process", "in.png", "--format", "tpx", "-o", "x", "--plugins", "plugins"], in: dir)
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown --format 'tpx'; use jpeg, png, webp, avif or tpix"))
    }

    @Test("A plugin processor's bad argument is a usage error with the built-ins' message and column")
    func badPluginArgument() async throws {
        let dir = try workspace()
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(["process", "in.png", "-p", "invert(amout: 2)", "-o", "x.png", "--plugins", "plugins"], in: dir)
        #expect(run.status == 2)
        #expect(run.error.contains("bad chain: invert: unknown argument 'amout' at column 8 — did you mean 'amount'?"))
    }
}
