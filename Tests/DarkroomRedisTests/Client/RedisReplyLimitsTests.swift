import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@testable import DarkroomRedis

@Suite("Redis replies: hiredis' array headers are bounded")
struct RedisReplyLimitsTests {
    @Test("A server declaring an array of 277,777,777 elements gets a protocol error, not a 2.2 GB allocation")
    func hugeArrayHeader() throws {
        let server = try ScriptedServer(reply: Array("*277777777\r\n".utf8))
        defer { server.stop() }
        let redis = RedisConnection(url: try RedisURL("redis://127.0.0.1:\(server.port)"), options: RedisTestKit.quickOptions)
        defer { redis.close() }
        do {
            _ = try redis.command(["PING"])
            Issue.record("the hostile reply was accepted")
        } catch {
            guard case .protocolError(let message) = error else {
                Issue.record("expected a protocol error, got \(error)")
                return
            }
            #expect(message.contains("more than \(RedisReplyLimits.maximumArrayElements) elements"))
        }
    }

    @Test("Arrays under the limit are built as before, through the bounded functions")
    func arraysUnderTheLimitAreRead() throws {
        let server = try ScriptedServer(reply: Array("*3\r\n:1\r\n$1\r\na\r\n$-1\r\n".utf8))
        defer { server.stop() }
        let redis = RedisConnection(url: try RedisURL("redis://127.0.0.1:\(server.port)"), options: RedisTestKit.quickOptions)
        defer { redis.close() }
        #expect(try redis.command(["PING"]) == .array([.integer(1), .bulk(Array("a".utf8)), .null]))
    }
}

/// A TCP server on loopback that answers whatever arrives on each connection with the same bytes:
/// a stand-in for a broken or hostile Redis.
private final class ScriptedServer: Sendable {
    let port: Int
    private let listener: Int32

    init(reply: [UInt8]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }  // the listener was closed
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &request, request.count)
                _ = reply.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                // Left open a moment, so the client reads the reply rather than an end of stream.
                usleep(200_000)
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
