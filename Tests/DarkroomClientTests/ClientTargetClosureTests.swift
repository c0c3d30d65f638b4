import Foundation
import Testing

/// `DarkroomClient` is what any program needs to use a fleet, and must not drag the image stack
/// along: no pixel targets, no codec or libcurl system libraries. Checked on the manifest itself
/// (`swift package dump-package`, with a scratch directory of its own: `swift test` holds the
/// lock on `.build`), and, when it has been built, on the example program's linked libraries.
@Suite("The client library's target closure")
struct ClientTargetClosureTests {
    /// The package root: three levels above this file (Tests/DarkroomClientTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let forbiddenTargets: Set<String> = [
        "CCurl", "CTurboJPEG", "CSpng", "CWebP", "CGif", "CDeflate", "CLcms2", "CHiredis",
        "DarkroomCore", "DarkroomCodecs", "DarkroomSources", "DarkroomPlugins", "DarkroomPipeline", "DarkroomStandardProcessors",
    ]

    static let forbiddenLibraries = ["libcurl", "libturbojpeg", "libspng", "libwebp", "libgif", "libdeflate", "liblcms2"]

    /// Runs `executable` with `arguments` in the package root; its standard output. The output goes
    /// to a file and the exit is awaited through the termination handler, so no thread of the
    /// cooperative pool blocks while `swift package` compiles the manifest.
    static func run(_ executable: String, _ arguments: [String]) async throws -> Data {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-closure-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: outputPath.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputPath) }
        let output = try FileHandle(forWritingTo: outputPath)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = root
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(status == 0, "\(executable) \(arguments.joined(separator: " "))")
        return try Data(contentsOf: outputPath)
    }

    /// Each target's direct target dependencies, from the manifest's JSON; read once for the suite.
    static let manifest = Task { () async throws -> [String: [String]] in
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-closure-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let json = try await run("swift", ["package", "--scratch-path", scratch, "dump-package"])
        guard let manifest = try JSONSerialization.jsonObject(with: json) as? [String: Any] else { return [:] }
        var dependencies: [String: [String]] = [:]
        for entry in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            // Each dependency is {"byName": [name, condition]}, {"target": […]} or {"product": […]}.
            dependencies[name] = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        return dependencies
    }

    /// Every target `target` depends on, directly or not.
    static func closure(of target: String) async throws -> Set<String> {
        let dependencies = try await manifest.value
        #expect(dependencies[target] != nil, "no target \(target) in the manifest")
        var seen: Set<String> = []
        var pending = [target]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where seen.insert(dependency).inserted { pending.append(dependency) }
        }
        return seen
    }

    @Test("DarkroomClient depends on the chain syntax, the records and the system layer only")
    func clientClosure() async throws {
        let closure = try await Self.closure(of: "DarkroomClient")
        #expect(closure.isDisjoint(with: Self.forbiddenTargets), "\(closure.intersection(Self.forbiddenTargets).sorted())")
        // Exactly these: anything new in the closure is a decision to take here, not a side effect.
        #expect(
            closure == ["DarkroomChains", "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomSchema", "DarkroomSystem"],
            "\(closure.sorted())")
    }

    @Test("The example program adds Redis and nothing of the image stack")
    func exampleClosure() async throws {
        let closure = try await Self.closure(of: "darkroom-example-client")
        #expect(closure.contains("DarkroomRedis") && closure.contains("DarkroomClient"))
        #expect(closure.isDisjoint(with: Self.forbiddenTargets.subtracting(["CHiredis"])), "\(closure.sorted())")
    }

    @Test("When the example program is built, it links no codec library and no libcurl")
    func exampleLinks() async throws {
        let candidates = ["debug", "release"].map { Self.root.appendingPathComponent(".build/\($0)/darkroom-example-client").path }
        let built = candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }
        for binary in built {
            let libraries = String(decoding: try await Self.run("ldd", [binary]), as: UTF8.self)
            #expect(libraries.contains("libhiredis"), "\(binary) should link hiredis")
            for library in Self.forbiddenLibraries {
                #expect(!libraries.contains(library), "\(binary) links \(library)")
            }
        }
    }
}
