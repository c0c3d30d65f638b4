import DarkroomS3
import DarkroomSystem
import Glibc

/// A real S3-compatible server for tests: `moto` in server mode (PyPI `moto[server]`), its own
/// process on a free loopback port, killed by `stop()` or `deinit`.
///
///     let moto = try await MotoS3Server()
///     defer { moto.stop() }
///     try await moto.createBucket("uploads")
///     let client = S3Client(endpoint: moto.endpoint(alias: "moto"), pool: pool)
///
/// With `checkSignatures` (the default) moto checks every request's SigV4 signature: it starts
/// with `INITIAL_NO_AUTH_ACTION_COUNT=3`, and those three unauthenticated actions create an IAM
/// user, its access key and an inline policy allowing `s3:*` (`MotoIAMSetup`); every later
/// request must be signed with that key (`endpoint(alias:)`), and a wrong secret gets 403
/// `SignatureDoesNotMatch` (`wrongSecretEndpoint`).
///
/// moto 5 checks a signature against the *decoded* path and query (werkzeug's IRI), so every key
/// or prefix with a byte outside the unreserved set but a space (`+`, `=`, `%`, `/` in a query,
/// `é`) fails even from AWS's own SDK. The server runs under `scripts/moto-signed.py`, which hands
/// moto's check the raw request URI instead (the one the client signed); nothing else changes.
///
/// A missing moto is an error (tests fail loudly, never skip): `scripts/install-packages test`
/// installs it; `MOTO_PYTHON` names another Python that has it.
public final class MotoS3Server: Sendable {
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let origin: String
    /// The IAM user's key pair (with `checkSignatures`), or a placeholder pair moto ignores.
    public let credentials: S3Credentials
    private let directory: String
    private let process = Locked<pid_t?>(nil)

    public init(checkSignatures: Bool = true) async throws {
        RealTime.require("Starting moto_server")
        var template = Array("/tmp/darkroom-moto-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw MotoS3ServerError(description: "mkdtemp failed: errno \(errno)")
        }
        let directory = String(cString: made)
        self.directory = directory
        var started: (pid_t, Int)?
        var lastError = MotoS3ServerError(description: "moto_server did not start")
        for _ in 0..<5 where started == nil {
            let (fd, candidate) = try TestHTTPServer.openListener(on: "127.0.0.1")
            close(fd)
            do {
                started = (try Self.launch(directory: directory, port: candidate, checkSignatures: checkSignatures), candidate)
            } catch let error as MotoS3ServerError {
                lastError = error
            }
        }
        guard let (pid, port) = started else {
            Self.removeDirectory(directory)
            throw lastError
        }
        var credentials = S3Credentials(accessKeyID: "AKIADARKROOMTEST", secretAccessKey: "moto-does-not-check")
        if checkSignatures {
            do {
                credentials = try await MotoIAMSetup.createUser(port: port)
            } catch {
                Self.terminate(pid)
                Self.removeDirectory(directory)
                throw error
            }
        }
        self.port = port
        self.credentials = credentials
        origin = "http://127.0.0.1:\(port)"
        process.withLock { $0 = pid }
    }

    deinit {
        stop()
        Self.removeDirectory(directory)
    }

    /// Path addressing, region `us-east-1`, the IAM user's credentials.
    public func endpoint(alias: String = "moto") -> S3Endpoint {
        S3Endpoint(alias: alias, url: origin, region: "us-east-1", addressing: .path, credentials: credentials)
    }

    /// The same endpoint with a wrong secret: every request gets 403 `SignatureDoesNotMatch`.
    public var wrongSecretEndpoint: S3Endpoint {
        var endpoint = endpoint(alias: "moto")
        endpoint.credentials = S3Credentials(accessKeyID: credentials.accessKeyID, secretAccessKey: "wrong" + credentials.secretAccessKey)
        return endpoint
    }

    /// Creates `name` (a signed `PUT /name`).
    public func createBucket(_ name: String) async throws {
        let reply = try await MotoIAMSetup.signedRequest(
            port: port, method: "PUT", path: "/" + name, credentials: credentials, service: "s3", body: [])
        guard reply.status == 200 else {
            throw MotoS3ServerError(description: "CreateBucket \(name): moto answered \(reply.status): \(reply.text.prefix(300))")
        }
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it. Safe to call twice.
    public func stop() {
        process.withLock { pid in
            guard let running = pid else { return }
            pid = nil
            Self.terminate(running)
        }
    }

    // MARK: - Process

    private static func launch(directory: String, port: Int, checkSignatures: Bool) throws -> pid_t {
        let python = getenv("MOTO_PYTHON").map { String(cString: $0) } ?? "python3"
        // Under coreutils `timeout`, so a server a dead test leaked exits after 15 minutes.
        let arguments = ["timeout", "900", python, PluginBuilds.repositoryRoot + "/scripts/moto-signed.py", "-H", "127.0.0.1", "-p", "\(port)"]
        var environment = [String]()
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if !text.hasPrefix("INITIAL_NO_AUTH_ACTION_COUNT=") { environment.append(text) }
            entry += 1
        }
        if checkSignatures { environment.append("INITIAL_NO_AUTH_ACTION_COUNT=\(MotoIAMSetup.unauthenticatedActions)") }
        // moto's request recorder (`/moto-api/recorder/…`, which tests count requests with)
        // writes to its working directory unless told: each server keeps its own, in its directory.
        environment.append("MOTO_RECORDER_FILEPATH=\(directory)/moto_recording")
        let pid: pid_t
        switch TestProcess.spawn(arguments, environment: environment, outputPath: directory + "/moto.log") {
        case .success(let started): pid = started
        case .failure(let error): throw MotoS3ServerError(description: "posix_spawnp timeout \(python) failed: \(error.code)")
        }

        // Ready when moto answers on the port (it takes a second or two to import). Another test's
        // server may have taken the port after it was picked: only moto's own answer counts.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            var exitStatus: Int32 = 0
            if waitpid(pid, &exitStatus, WNOHANG) == pid {
                let log = TestProcess.read(directory + "/moto.log") ?? ""
                throw MotoS3ServerError(
                    description: "moto_server exited at start-up (install it with scripts/install-packages test): \(log.suffix(800))")
            }
            if answersAsMoto(port: port) { return pid }
            usleep(50_000)
        }
        terminate(pid)
        throw MotoS3ServerError(description: "moto_server did not listen on port \(port) within 60 s")
    }

    /// Whether `GET /moto-api/data.json` (moto's own API, not an AWS action: it does not count
    /// against `INITIAL_NO_AUTH_ACTION_COUNT`) gets a 200 from werkzeug on `port`.
    private static func answersAsMoto(port: Int) -> Bool {
        guard let fd = LoopbackSocket.connected(toPort: port) else { return false }
        defer { close(fd) }
        let request = Array("GET /moto-api/data.json HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while answer.count < 64 << 10 {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            answer += chunk[0..<count]
        }
        let text = String(decoding: answer.prefix(1024), as: UTF8.self)
        return text.hasPrefix("HTTP/1.1 200") && text.contains("Server: Werkzeug")
    }

    private static func terminate(_ pid: pid_t) {
        TestProcess.terminate(pid)
    }

    // MARK: - Files

    private static func removeDirectory(_ path: String) {
        for name in ["moto.log"] { unlink(path + "/" + name) }
        rmdir(path)
    }
}

public struct MotoS3ServerError: Error, CustomStringConvertible {
    public let description: String
}
