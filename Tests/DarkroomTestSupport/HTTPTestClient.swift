import Foundation
import Glibc

/// A minimal HTTP/1.1 client over a real loopback socket, for the coordinator's server: one
/// request per connection (`Connection: close`). The blocking socket calls run on a Dispatch
/// thread, never on the cooperative pool the server's handlers need.
public struct HTTPTestClient {
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public let port: Int

    public init(port: Int) { self.port = port }

    /// GET `path` and read the whole response (until the server closes, or `timeout`).
    public func get(_ path: String, headers: [(String, String)] = [], timeout: Double = 10) async throws -> Reply {
        try await read(path, headers: headers, timeout: timeout) { _ in false }
    }

    /// GET `path` and read until `enough(bodySoFar)` or `timeout`; for streams (`/events`).
    public func read(
        _ path: String, headers: [(String, String)] = [], timeout: Double = 10, until enough: @escaping @Sendable ([UInt8]) -> Bool
    ) async throws -> Reply {
        try await perform("GET", path, headers: headers, body: nil, timeout: timeout, until: enough)
    }

    /// `method` on `path` with `body` (sent with its `Content-Length`), and the whole response.
    public func perform(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil, timeout: Double = 10,
        until enough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }
    ) async throws -> Reply {
        let port = port
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try Self.exchange(
                            port: port, method: method, path: path, headers: headers, body: body, timeout: timeout, enough: enough)
                    })
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8]?, timeout: Double,
        enough: ([UInt8]) -> Bool
    ) throws -> Reply {
        guard let fd = LoopbackSocket.connected(toPort: port, receiveTimeout: 200_000) else {
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(errno)")
        }
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8) + (body ?? [])
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw Failure(description: "send failed") }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { break }
            if count > 0 {
                received += chunk[0..<count]
                if let reply = try? parse(received), enough(reply.body) { return reply }
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                break
            }
        }
        guard !received.isEmpty else {
            throw Failure(description: "\(method) \(path): no response within \(timeout) s (or the server closed the connection)")
        }
        return try parse(received)
    }

    /// Splits a response into status, headers and body (de-chunked when chunked).
    static func parse(_ bytes: [UInt8]) throws -> Reply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else { throw Failure(description: "no complete response head in \(bytes.count) bytes") }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line '\(head[0])'") }
        let headers = head.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(bytes[end.upperBound...])
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            body = dechunk(body)
        }
        return Reply(status: status, headers: headers, body: body)
    }

    /// The data of every complete chunk (a partial last chunk is kept as far as it goes).
    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let stop = min(start + size, bytes.count)
            output += bytes[start..<stop]
            index = stop + 2
        }
        return output
    }
}
