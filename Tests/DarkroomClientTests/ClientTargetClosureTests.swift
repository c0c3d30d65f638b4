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

    /// Runs `executable` with `arguments` in the package root; its standard output.
    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) \(arguments.joined(separator: " "))")
        return data
    }

    /// Every target `target` depends on, directly or not, from the manifest's JSON.
    static func closure(of target: String) throws -> Set<String> {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-closure-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let json = try run("swift", ["package", "--scratch-path", scratch, "dump-package"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        var dependencies: [String: [String]] = [:]
        for entry in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            // Each dependency is {"byName": [name, condition]}, {"target": […]} or {"product": […]}.
            dependencies[name] = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        #expect(dependencies[target] != nil, "no target \(target) in the manifest")
        var seen: Set<String> = []
        var pending = [target]
        while let next = pending.popLast() {
            for dependency in dependencies[next] ?? [] where seen.insert(dependency).inserted { pending.append(dependency) }
        }
        return seen
    }

    @Test("DarkroomClient depends on the chain syntax, the records and the system layer only")
    func clientClosure() throws {
        let closure = try Self.closure(of: "DarkroomClient")
        #expect(closure.isDisjoint(with: Self.forbiddenTargets), "\(closure.intersection(Self.forbiddenTargets).sorted())")
        // Exactly these: anything new in the closure is a decision to take here, not a side effect.
        #expect(
            closure == ["DarkroomChains", "DarkroomQueue", "DarkroomEventStream", "DarkroomFleetStatus", "DarkroomSchema", "DarkroomSystem"],
            "\(closure.sorted())")
    }

    @Test("The example program adds Redis and nothing of the image stack")
    func exampleClosure() throws {
        let closure = try Self.closure(of: "darkroom-example-client")
        #expect(closure.contains("DarkroomRedis") && closure.contains("DarkroomClient"))
        #expect(closure.isDisjoint(with: Self.forbiddenTargets.subtracting(["CHiredis"])), "\(closure.sorted())")
    }

    @Test("When the example program is built, it links no codec library and no libcurl")
    func exampleLinks() throws {
        let candidates = ["debug", "release"].map { Self.root.appendingPathComponent(".build/\($0)/darkroom-example-client").path }
        let built = candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }
        for binary in built {
            let libraries = String(decoding: try Self.run("ldd", [binary]), as: UTF8.self)
            #expect(libraries.contains("libhiredis"), "\(binary) should link hiredis")
            for library in Self.forbiddenLibraries {
                #expect(!libraries.contains(library), "\(binary) links \(library)")
            }
        }
    }
}
