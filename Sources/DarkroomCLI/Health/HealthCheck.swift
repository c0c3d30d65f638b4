import DarkroomPipeline
import DarkroomRedis
import Foundation
import Glibc

/// The checks behind `darkroom health`, each ending in a `Result` rather than throwing, so every
/// check is reported even when an earlier one failed.
enum HealthCheck {
    struct Result {
        var name: String
        var passed: Bool
        var detail: String
    }

    /// Redis answers `PING` within `timeout`, on a fresh connection (a probe must see what a new
    /// worker would see, not a pooled connection's past).
    static func redis(url: RedisURL, timeout: Duration) async -> Result {
        let name = "redis \(url)"
        let options = RedisConnectionOptions(
            connectTimeout: timeout, commandTimeout: timeout, reconnectAttempts: 0,
            initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(50))
        let client = RedisClient(url: url, options: options, connections: 1, dedicatedConnections: 0)
        defer { client.close() }
        let start = ContinuousClock.now
        do {
            let reply = try await client.command(["PING"], timeout: timeout)
            guard reply == .status("PONG") else { return Result(name: name, passed: false, detail: "PING answered \(reply)") }
            let elapsed = ContinuousClock.now - start
            return Result(name: name, passed: true, detail: "answered PING in \(milliseconds(elapsed)) ms")
        } catch {
            return Result(name: name, passed: false, detail: "\(error)")
        }
    }

    /// The directory exists and a new file can be created, written and removed in it: what the
    /// cache and the outputs need from the shared volume (a read-only or full mount fails here).
    static func writable(directory: String) -> Result {
        let name = "directory \(directory)"
        guard FileIO.isDirectory(directory) else { return Result(name: name, passed: false, detail: "not a directory (is the volume mounted?)") }
        let probe = directory + "/.darkroom-health-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return Result(name: name, passed: false, detail: "cannot create a file: \(String(cString: strerror(errno)))")
        }
        // NFS reports a full disk or quota often only at fsync or close, so both count.
        let byte: [UInt8] = [0x0A]
        var writeError: String? = nil
        if byte.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) != 1 || fsync(descriptor) != 0 {
            writeError = String(cString: strerror(errno))
        }
        if close(descriptor) != 0, writeError == nil { writeError = String(cString: strerror(errno)) }
        unlink(probe)
        if let writeError { return Result(name: name, passed: false, detail: "cannot write a file: \(writeError)") }
        return Result(name: name, passed: true, detail: "takes writes")
    }

    /// The file was modified at most `maxAge` seconds ago.
    static func fresh(file: String, maxAge: Double) -> Result {
        let name = "heartbeat \(file)"
        var info = stat()
        guard stat(file, &info) == 0 else {
            return Result(name: name, passed: false, detail: "cannot read it: \(String(cString: strerror(errno)))")
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Double(now.tv_sec - info.st_mtim.tv_sec) + Double(now.tv_nsec - info.st_mtim.tv_nsec) / 1e9
        let shown = String(format: "%.1f", age)
        guard age <= maxAge else { return Result(name: name, passed: false, detail: "last touched \(shown) s ago (more than \(Int(maxAge)) s)") }
        return Result(name: name, passed: true, detail: "touched \(shown) s ago")
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }
}
