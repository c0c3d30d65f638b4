import Foundation
import Glibc

/// A real TLS server for tests: `openssl s_server -WWW` on `127.0.0.1`, with a throwaway CA and a
/// server certificate for `IP:127.0.0.1` made by the `openssl` command at start-up.
///
/// `s_server -WWW` serves files relative to its working directory, which is `documentRoot`, so a
/// test writes the files it wants served there (before or after starting). The server is a child
/// process; `stop()` (or deinit) terminates it and removes the temporary directory.
///
///     let server = try TestTLSServer(files: ["cat.png": png])
///     defer { server.stop() }
///     policy.caCertificatesPath = server.caCertificatePath
///     … fetch server.url("/cat.png") …
public final class TestTLSServer {
    /// The `openssl` command used; the tests fail (they do not skip) when it is missing.
    public static let opensslPath = "/usr/bin/openssl"

    public let port: Int
    /// The throwaway CA's certificate (PEM): trust it to verify the server.
    public let caCertificatePath: String
    /// The directory files are served from.
    public let documentRoot: String
    private let workDirectory: String
    private let process: Process

    /// `https://127.0.0.1:PORT`.
    public var origin: String { "https://127.0.0.1:\(port)" }

    /// `origin` + `path`.
    public func url(_ path: String) -> String { origin + path }

    /// Makes the certificates, writes `files` into `documentRoot` and starts the server on a free
    /// port, returning once it accepts connections.
    public init(files: [String: [UInt8]] = [:]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.opensslPath) else {
            throw TestTLSServerError("\(Self.opensslPath) not found: install openssl (apt-get install openssl) to run the https tests")
        }
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("darkroom-tls-\(UUID().uuidString)").path
        let www = work + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        do {
            try Self.makeCertificates(in: work)
            for (name, bytes) in files {
                try Data(bytes).write(to: URL(fileURLWithPath: www + "/" + name))
            }
            (process, port) = try Self.launch(in: work, documentRoot: www)
        } catch {
            try? FileManager.default.removeItem(atPath: work)
            throw error
        }
        workDirectory = work
        documentRoot = www
        caCertificatePath = work + "/ca.pem"
    }

    deinit { stop() }

    /// Terminates the server, waits for it to exit and removes its files. Safe to call twice.
    public func stop() {
        Self.end(process)
        try? FileManager.default.removeItem(atPath: workDirectory)
    }

    /// Ends `process` with SIGKILL and reaps it. Not SIGTERM (`Process.terminate()`): a child
    /// spawned from a Swift concurrency or dispatch thread inherits that thread's signal mask, in
    /// which SIGTERM is blocked, so s_server would never see it and `waitUntilExit` would hang.
    /// s_server keeps no state worth a graceful shutdown.
    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    // MARK: certificates

    /// A P-256 CA (1 day) and a server certificate it signs for `IP:127.0.0.1`, both in `dir`.
    private static func makeCertificates(in dir: String) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
                "-subj", "/CN=Darkroom Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: dir)
        try openssl(["req"] + ec + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"], in: dir)
        let extensions = """
            subjectAltName=IP:127.0.0.1
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """
        try Data(extensions.utf8).write(to: URL(fileURLWithPath: dir + "/server.ext"))
        try openssl(
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "1", "-extfile", "server.ext",
            ], in: dir)
    }

    /// Runs `openssl arguments` in `dir`, throwing with its output when it fails.
    private static func openssl(_ arguments: [String], in dir: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opensslPath)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestTLSServerError("openssl \(arguments.prefix(2).joined(separator: " ")) failed: \(text)")
        }
    }

    // MARK: the server process

    /// Starts `s_server` on a port that was free a moment ago; another process may take it first,
    /// so a server that exits (could not bind) is retried on a new port.
    private static func launch(in dir: String, documentRoot: String) throws -> (Process, Int) {
        var lastError = "no attempt made"
        for _ in 0..<5 {
            let (fd, port) = try TestHTTPServer.openListener(on: "127.0.0.1")
            close(fd)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opensslPath)
            process.arguments = [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", dir + "/server.pem",
                "-key", dir + "/server.key", "-WWW", "-quiet",
            ]
            process.currentDirectoryURL = URL(fileURLWithPath: documentRoot)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Up to 5 s for the listener to appear (s_server starts in well under a second).
            for _ in 0..<250 where process.isRunning {
                if acceptsConnections(port: port) { return (process, port) }
                usleep(20_000)
            }
            if process.isRunning {
                end(process)
                lastError = "openssl s_server did not listen on port \(port) within 5 s"
            } else {
                lastError = "openssl s_server exited with status \(process.terminationStatus) on port \(port)"
            }
        }
        throw TestTLSServerError(lastError)
    }

    /// True when a TCP connection to `127.0.0.1:port` succeeds (it is closed at once; s_server
    /// logs a failed handshake and goes on accepting).
    private static func acceptsConnections(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// The TLS test server could not be set up; the message says why and what to install.
public struct TestTLSServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
