import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPlugins
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// Plugins in a fleet, with real `darkroom worker` processes: the example plugins (C, Swift and,
/// where cargo is present, Rust) through `process`, `run` and a worker, and a plugin that crashes
/// its worker on one input.
@Suite("Plugins in the fleet, end to end with real processes and Redis", .serialized, .realTime)
struct PluginFleetRealTimeTests {
    /// A plugins directory under the fleet holding the three examples (Rust when cargo is there)
    /// and the test plugin; returns the chain that uses every example.
    private func plugins(in fleet: FleetKit) throws -> String {
        let directory = fleet.path("plugins")
        // The loader checks every directory above a plugin, whatever the umask made them.
        chmod(fleet.root, 0o755)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        try CPluginCompiler.compile(CPluginCompiler.invertExample, into: directory, name: "libinvert.so")
        try CPluginCompiler.compile(CPluginCompiler.testPlugin, into: directory, name: "libtestkit.so")
        let swift = try DarkroomBinary.path(named: "libDarkroomExampleSwiftPlugin.so")
        try FileManager.default.copyItem(atPath: swift, toPath: directory + "/libsepia.so")
        chmod(directory + "/libsepia.so", 0o755)
        var chain = "invert(0.8)|>sepia(0.5)"
        if PluginBuilds.cargo != nil {
            let rust = try PluginBuilds.buildRust(
                manifest: "Plugins/Examples/Rust/Cargo.toml", library: "darkroom_example_rust", targetDirectory: fleet.path("rust-target"))
            try FileManager.default.copyItem(atPath: rust, toPath: directory + "/libmosaic.so")
            chmod(directory + "/libmosaic.so", 0o755)
            chain += "|>mosaic(4)"
        } else {
            print("note: cargo is neither on PATH nor in ~/.cargo/bin; the Rust example is left out of this test")
        }
        return chain
    }

    /// The straight-alpha pixels of a PNG file.
    private func pixels(_ path: String) throws -> [RGBAColor] {
        let bitmap = try CoderRegistry.standard.decode(EncodedImage(bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), sourceName: path))
            .bitmap
        return (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap.pixel(x: x, y: y) } }
    }

    @Test("The example plugins give the same pixels through process, run and a fleet worker as when loaded in this test")
    func examplesEverywhere() async throws {
        let fleet = try FleetKit()
        let chain = try plugins(in: fleet)
        let source = try fleet.image("photo.png", width: 48, height: 32, seed: 3)
        // The reference: the same chain, the plugins loaded into this process.
        var catalog = PluginCatalog(builtIn: [])
        PluginLoader.load(PluginSearchPath(directories: [fleet.path("plugins")]), into: &catalog)
        #expect(catalog.refusals.isEmpty, "\(catalog.refusals)")
        let input = try CoderRegistry.standard.decode(EncodedImage(bytes: try FleetKit.png(width: 48, height: 32, seed: 3), sourceName: "photo"))
        let expected = try catalog.processors.chain(from: chain).process(input.bitmap)
        let reference = fleet.path("out/reference.png")
        try Data(try CoderRegistry.standard.encoder(for: .png).encode(expected, options: EncodeOptions())).write(to: URL(fileURLWithPath: reference))

        let process = try await fleet.run(["process", source, "-p", chain, "-o", fleet.path("out/process.png"), "--plugins", fleet.path("plugins")])
        #expect(process.status == 0, "\(process.error)")
        let run = try await fleet.run(["run", source, "-p", chain, "--out", fleet.path("out/run"), "--plugins", fleet.path("plugins")])
        #expect(run.status == 0, "\(run.error)")

        let worker = try fleet.worker(name: "w1", extra: ["--plugins", fleet.path("plugins")])
        let enqueue = try await fleet.run(
            ["enqueue", source, "-p", chain, "--batch", "examples", "--out", fleet.path("out/fleet"), "--plugins", fleet.path("plugins")])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        let wait = try await fleet.run(["wait", "examples", "--timeout", "60"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)")

        let want = try pixels(reference)
        #expect(try pixels(fleet.path("out/process.png")) == want)
        #expect(try pixels(fleet.path("out/run/photo.png")) == want)
        #expect(try pixels(fleet.path("out/fleet/photo.png")) == want)
        worker.kill(SIGTERM)
        _ = await worker.waitForExit(timeout: .seconds(30))
    }

    @Test("A plugin that aborts on one input: that job dead-letters with queue.stalled, and its neighbours succeed")
    func abortingPlugin() async throws {
        let fleet = try FleetKit()
        _ = try plugins(in: fleet)
        let neighbours = try (0..<4).map { try fleet.image("photo\($0).png", width: 40, height: 30, seed: $0) }
        // The test plugin's `explode` calls abort() on an image whose top-left pixel is opaque red.
        let red = try Bitmap(width: 40, height: 30, fill: RGBAColor(red: 255, green: 0, blue: 0))
        let poison = fleet.path("images/red.png")
        try Data(try CoderRegistry.standard.encoder(for: .png).encode(red, options: EncodeOptions())).write(to: URL(fileURLWithPath: poison))
        let enqueue = try await fleet.run(
            ["enqueue", poison] + neighbours + [
                "-p", "explode|>negate", "--batch", "abort", "--out", fleet.path("out/abort"), "--plugins", fleet.path("plugins"),
            ])
        #expect(enqueue.status == 0, "\(enqueue.error)")

        // A supervisor: whenever the worker dies, start another, until every job has ended.
        let deadline = ContinuousClock.now + .seconds(120)
        var workers: [FleetKit.Child] = []
        var crashes = 0
        while ContinuousClock.now < deadline {
            if workers.last?.process.isRunning != true {
                if !workers.isEmpty { crashes += 1 }
                workers.append(
                    try fleet.worker(
                        name: "w\(workers.count)", concurrency: 4,
                        extra: ["--plugins", fleet.path("plugins"), "--visibility-timeout", "2", "--max-attempts", "3"]))
            }
            let terminal = FleetKit.terminalEvents(try await fleet.events())
            if terminal.count == 5 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let events = try await fleet.events()
        let terminal = FleetKit.terminalEvents(events)
        #expect(terminal.count == 5)
        #expect(terminal.values.allSatisfy { $0.count == 1 })
        let dead = events.filter { $0.type == .dead }
        #expect(dead.count == 1)
        #expect(dead.first?.error?.code == "queue.stalled")
        #expect(events.filter { $0.type == .succeeded }.count == 4)
        #expect(crashes >= 3, "the poison job crashes a worker on each of its 3 deliveries")
        // A worker killed mid-write may leave its hidden temporary file; never a half-written output.
        let written = try FileManager.default.contentsOfDirectory(atPath: fleet.path("out/abort")).filter { !$0.hasPrefix(".darkroom-tmp-") }
        #expect(written.sorted() == (0..<4).map { "photo\($0).png" })
        for worker in workers where worker.process.isRunning { worker.kill(SIGTERM) }
        for worker in workers { _ = await worker.waitForExit(timeout: .seconds(30)) }
    }
}
