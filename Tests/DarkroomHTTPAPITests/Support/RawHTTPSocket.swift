import DarkroomTestSupport
import Glibc

/// A raw client connection to the API, for tests that send a request a byte at a time (a
/// slowloris) or hold a connection open: what an HTTP client library would never do.
final class RawHTTPSocket {
    struct Failure: Error, CustomStringConvertible { var description: String }

    private var fd: Int32

    init(port: Int) throws {
        guard let fd = LoopbackSocket.connected(toPort: port) else { throw Failure(description: "cannot connect to port \(port)") }
        self.fd = fd
    }

    deinit { shut() }

    /// Closes the connection (again: nothing).
    func shut() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Sends `text`; false when it could not (the server has closed the connection).
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count
    }

    /// What arrives within `seconds`, and whether the server ended the connection (then it
    /// returns at once).
    func receive(for seconds: Double) async throws -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return (String(decoding: bytes, as: UTF8.self), true)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return (String(decoding: bytes, as: UTF8.self), false)
    }
}
