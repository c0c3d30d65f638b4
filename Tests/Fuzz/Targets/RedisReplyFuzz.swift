import CHiredis
@_spi(Fuzzing) import DarkroomRedis

/// Redis replies: hiredis parses the bytes (RESP) into its reply tree, Darkroom copies the tree
/// into `RedisReply`. Every reply hiredis reads must copy without a crash, and the copy, written
/// back as RESP and read again, must be the same reply (bulk strings are binary-safe; nil bulk
/// and nil array are both `.null`). Readers carry `RedisReplyLimits`, as Darkroom's connections do.
enum RedisReplyFuzz {
    static let target = FuzzTarget(
        name: "reply",
        summary: "RESP bytes through hiredis' reader into RedisReply; written back and read again, the same reply"
    ) { bytes in
        let replies = read(Array(bytes))
        for reply in replies {
            let again = read(encode(reply))
            if again != [reply] {
                FuzzFailure.stop("reply", "\(reply) was written back as \(encode(reply)) and read as \(again)")
            }
        }
    }

    /// The replies hiredis reads from `bytes`, up to the first protocol error or incomplete reply.
    private static func read(_ bytes: [UInt8]) -> [RedisReply] {
        guard let reader = redisReaderCreate() else { return [] }
        defer { redisReaderFree(reader) }
        // As Darkroom's connections read: with the bound on array headers (a regression input
        // asks for 277,777,777 elements).
        RedisReplyLimits.apply(to: reader)
        let fed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { redisReaderFeed(reader, $0.baseAddress, $0.count) }
        }
        guard fed == REDIS_OK else { return [] }
        var replies: [RedisReply] = []
        while replies.count < 64 {
            var raw: UnsafeMutableRawPointer?
            guard redisReaderGetReply(reader, &raw) == REDIS_OK, let raw else { break }
            replies.append(RedisReply(copying: raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        return replies
    }

    /// RESP2 for `reply`.
    private static func encode(_ reply: RedisReply) -> [UInt8] {
        switch reply {
        case .bulk(let bytes): return Array("$\(bytes.count)\r\n".utf8) + bytes + Array("\r\n".utf8)
        case .status(let text): return Array("+\(text)\r\n".utf8)
        case .error(let text): return Array("-\(text)\r\n".utf8)
        case .integer(let value): return Array(":\(value)\r\n".utf8)
        case .null: return Array("$-1\r\n".utf8)
        case .array(let elements): return Array("*\(elements.count)\r\n".utf8) + elements.flatMap(encode)
        }
    }
}
