import Glibc

/// Why `TestHTTPServer` could not start.
public struct TestHTTPServerError: Error, CustomStringConvertible {
    public var description: String
}

extension TestHTTPServer {
    /// A listening socket on `host` (IPv4 or IPv6 literal) at a free port.
    public static func openListener(on host: String) throws -> (Int32, Int) {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPServerError(description: "socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        var port = 0
        let bound: Bool
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                close(fd)
                throw TestHTTPServerError(description: "not an IPv6 address: \(host)")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin6_port))
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(fd)
                throw TestHTTPServerError(description: "not an IPv4 address: \(host)")
            }
            bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }
        guard bound, listen(fd, 128) == 0, port > 0 else {
            let code = errno
            close(fd)
            throw TestHTTPServerError(description: "cannot listen on \(host): errno \(code)")
        }
        return (fd, port)
    }

    /// Runs `body` on a new detached thread.
    public static func spawnThread(_ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, box)
        if result == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).release()
        }
    }
}
