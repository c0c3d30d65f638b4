import DarkroomCache
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// Helpers for the cache tests: scratch directories, file ages, the `darkroom` binary.
enum CacheTestKit {
    /// A fresh empty directory under the system temporary directory.
    static func makeDirectory(_ label: String = "cache") throws -> String {
        let path = NSTemporaryDirectory() + "darkroom-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// A configuration without automatic sweeps (tests sweep explicitly) and with refreshes on
    /// every hit older than one second.
    static func configuration(
        resultsLimit: Int = 1 << 30, originalsLimit: Int = 1 << 30,
        timeToLive: Duration? = .seconds(7 * 86_400)
    ) -> DiskCache.Configuration {
        DiskCache.Configuration(
            resultsLimitBytes: resultsLimit, originalsLimitBytes: originalsLimit, timeToLive: timeToLive,
            recencyRefreshInterval: .seconds(1), automaticSweep: nil)
    }

    /// Sets the modification time of `path` to `secondsAgo` in the past.
    static func age(_ path: String, secondsAgo: Double) throws {
        let date = Date(timeIntervalSinceNow: -secondsAgo)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    static func modificationDate(_ path: String) throws -> Date {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.modificationDate] as? Date)
    }

    /// Every file under `directory`'s area folders whose name starts with `.tmp-`.
    static func temporaryFiles(in directory: String) -> [String] {
        files(in: directory).filter { ($0 as NSString).lastPathComponent.hasPrefix(".tmp-") }
    }

    /// Every entry file (64-hex-digit name) under `directory`'s areas.
    static func entryFiles(in directory: String) -> [String] {
        files(in: directory).filter { ($0 as NSString).lastPathComponent.count == 64 }
    }

    private static func files(in directory: String) -> [String] {
        var found: [String] = []
        for area in CacheArea.allCases {
            let root = "\(directory)/\(area.rawValue)"
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: "\(root)/\(relative)", isDirectory: &isDirectory), !isDirectory.boolValue {
                    found.append("\(root)/\(relative)")
                }
            }
        }
        return found
    }

    static func bytes(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Deterministic test content.
    static func value(_ seed: Int, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed &* 31 &+ ($0 >> 8)) }
    }

    // MARK: The darkroom binary

    /// The `darkroom` executable SwiftPM built next to this test bundle.
    static var darkroomBinary: String { get throws { try DarkroomBinary.path } }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The outcome of one `darkroom` run.
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Starts `darkroom-cache-stress arguments…`, the cache stress test tool (Tests/Tools/CacheStress).
    static func startStress(_ arguments: [String]) throws -> Process {
        RealTime.require("darkroom-cache-stress processes racing on one cache directory")
        return try start(arguments, executable: try DarkroomBinary.path(named: "darkroom-cache-stress"))
    }

    /// Starts `darkroom arguments…` (or `executable`) with `environment` changes (nil value: unset)
    /// and returns the process, with its output going to pipes read by `finish`.
    static func start(_ arguments: [String], environment: [String: String?] = [:], executable: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? darkroomBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (name, value) in environment { env[name] = value }
        process.environment = env
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for `process` and collects its output.
    static func finish(_ process: Process) -> Run {
        let output = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let error = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }

    /// Runs `darkroom arguments…` to completion.
    static func run(_ arguments: [String], environment: [String: String?] = [:]) throws -> Run {
        finish(try start(arguments, environment: environment))
    }

    /// Parses one line of JSON output into a dictionary.
    static func json(_ text: String) throws -> [String: Any] {
        let line = try #require(text.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// An independent re-implementation of the stress tool's `StressValue`, so the tests check the
    /// tool's output against its documented formula rather than against itself.
    static func stressValue(index: Int, maxBytes: Int, fixedSize: Bool) -> [UInt8] {
        let key = "stress-\(index)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let length = fixedSize ? maxBytes : 64 + Int(hash % UInt64(maxBytes - 63))
        let header = Array("\(key):\(length)\n".utf8)
        return (0..<max(length, header.count)).map { j in
            j < header.count ? header[j] : UInt8(truncatingIfNeeded: (hash >> UInt64((j % 8) * 8)) &+ UInt64(j) &* 131)
        }
    }
}

extension CacheTestKit {
    /// Runs `body(0..<count)` on `count` real threads at once and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            let thread = Thread {
                body(index)
                done.signal()
            }
            thread.start()
        }
        for _ in 0..<count { done.wait() }
    }
}
