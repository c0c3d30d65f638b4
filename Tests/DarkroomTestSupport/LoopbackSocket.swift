import Glibc

/// A TCP client socket to a port on 127.0.0.1, for tests that talk to a server they started.
public enum LoopbackSocket {
    /// A connected socket (close it), with reads timing out after `receiveTimeout` microseconds;
    /// nil when the port does not accept.
    public static func connected(toPort port: Int, receiveTimeout: Int = 1_000_000) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: receiveTimeout / 1_000_000, tv_usec: suseconds_t(receiveTimeout % 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
