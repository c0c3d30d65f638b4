import Foundation
import Glibc
import ServiceLifecycle

/// `darkroom worker --heartbeat-file FILE`: touches FILE every `interval` while the worker runs, for
/// a liveness probe (`darkroom health --heartbeat-file FILE`). It proves the process and its
/// concurrency runtime are alive, and nothing about Redis on purpose: a Redis outage must not get
/// every worker restarted. It keeps touching through the worker's grace period and removes the
/// file when the worker has stopped.
struct HeartbeatFile: Service {
    let path: String
    var interval: Duration = .seconds(5)

    /// Creates the file (failing at start, with the reason, when it cannot be written).
    func create() throws(UsageFailure) {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw UsageFailure("--heartbeat-file '\(path)' cannot be written: \(String(cString: strerror(errno)))")
        }
        let text = Array("darkroom worker \(getpid())\n".utf8)
        _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                // A null time list sets both times to now; a failure is left for the probe to see.
                _ = utimensat(AT_FDCWD, path, nil, 0)
                try? await Task.sleep(for: interval)
            }
        }
        unlink(path)
    }
}
