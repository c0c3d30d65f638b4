import Glibc

extension TestHTTPServer.Core {
    /// Reads requests from one connection and answers them until the client leaves, a response
    /// ends the connection, or the server stops.
    public func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: idleSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        while !isStopping {
            guard let (request, consumed) = readRequest(fd, buffer: &buffer) else { return }
            buffer.removeFirst(consumed)
            state.withLock { $0.requests.append(request) }
            let response = handler(request)
            if response.status == 0 { return }  // hang up without answering
            let closeAfter = !response.body.keepsConnection || request.header("Connection")?.lowercased() == "close"
            guard write(response, to: fd, closing: closeAfter), !closeAfter else { return }
        }
    }

    /// The next request's head, and how many buffered bytes it used; nil when the client left or
    /// sent something that is not an HTTP request.
    private func readRequest(_ fd: Int32, buffer: inout [UInt8]) -> (TestHTTPRequest, Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = Self.find(terminator, in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
                let requestLine = lines.removeFirst().split(separator: " ")
                guard requestLine.count == 3 else { return nil }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (
                        String(line[..<colon]),
                        String(line[line.index(after: colon)...].drop { $0 == " " })
                    )
                }
                let request = TestHTTPRequest(
                    method: String(requestLine[0]), target: String(requestLine[1]),
                    headers: headers, origin: origin)
                return (request, end + terminator.count)
            }
            // 0x16 opens a TLS handshake: this server speaks plain HTTP only, so hang up at once.
            guard buffer.first != 0x16, buffer.count < 16 << 10, !isStopping else { return nil }
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    /// Sends `response`; false when the client went away.
    private func write(_ response: TestHTTPResponse, to fd: Int32, closing: Bool) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(TestHTTPResponse.reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        switch response.body {
        case .fixed(let bytes):
            head += "Content-Length: \(bytes.count)\r\n"
        case .drip(let bytes, _, _, let announce) where announce:
            head += "Content-Length: \(bytes.count)\r\n"
        case .chunked:
            head += "Transfer-Encoding: chunked\r\n"
        default:
            break
        }
        head += closing ? "Connection: close\r\n\r\n" : "\r\n"
        guard sendAll(fd, Array(head.utf8)) else { return false }

        switch response.body {
        case .fixed(let bytes), .untilClose(let bytes):
            return sendBody(fd, bytes[...])
        case .chunked(let bytes, let size):
            var offset = 0
            while offset < bytes.count {
                let piece = bytes[offset..<min(bytes.count, offset + max(1, size))]
                guard sendAll(fd, Array(String(piece.count, radix: 16).utf8) + [13, 10]),
                    sendBody(fd, piece), sendAll(fd, [13, 10])
                else { return false }
                offset += piece.count
            }
            return sendAll(fd, Array("0\r\n\r\n".utf8))
        case .drip(let bytes, let step, let interval, _):
            var offset = 0
            while offset < bytes.count {
                guard !isStopping, sendBody(fd, bytes[offset..<min(bytes.count, offset + max(1, step))]) else { return false }
                offset += max(1, step)
                let (seconds, attoseconds) = interval.components
                usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
            }
            return true
        case .endless(let chunk, let limit):
            var sent = 0
            while sent < limit {
                guard !isStopping, sendBody(fd, chunk[...]) else { return false }
                sent += chunk.count
            }
            return true
        }
    }

    /// Sends body bytes, counting them, and counts a hang-up when the client stopped reading.
    private func sendBody(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        let (ok, sent) = transmit(fd, bytes)
        state.withLock { state in
            state.bodyBytesSent += sent
            if !ok { state.hangUps += 1 }
        }
        return ok
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        transmit(fd, bytes[...]).ok
    }

    /// Sends every byte (MSG_NOSIGNAL: a client that hung up is an error, not a SIGPIPE); returns
    /// whether all went out and how many did.
    private func transmit(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> (ok: Bool, sent: Int) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return (true, 0) }
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return (false, offset) }
                offset += sent
            }
            return (true, offset)
        }
    }
}
