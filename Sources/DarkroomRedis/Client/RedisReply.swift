import CHiredis

/// One reply from Redis, copied out of hiredis' `redisReply` so it outlives `freeReplyObject`.
///
/// Bulk strings are bytes (`[UInt8]`): Redis values are binary-safe, and a value with a NUL or
/// invalid UTF-8 must round-trip unchanged. `string` decodes them as UTF-8 when that is wanted.
public enum RedisReply: Sendable, Equatable {
    /// A bulk string (`GET`, `HGET`, stream field values…).
    case bulk([UInt8])
    /// A status reply (`+OK`, `+PONG`, `+QUEUED`).
    case status(String)
    case integer(Int64)
    case array([RedisReply])
    /// A nil bulk or nil array (missing key, `BLPOP` timed out on the server side).
    case null
    /// An error reply. `RedisConnection.command` throws these as `RedisError.server`; they appear
    /// as values only inside pipelines and nested arrays (`EXEC`), so one failure does not hide
    /// the other results.
    case error(String)

    /// Bulk or status text as UTF-8 (invalid sequences repaired), else `nil`.
    public var string: String? {
        switch self {
        case .bulk(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .status(let text): return text
        default: return nil
        }
    }

    /// The bytes of a bulk or status reply, else `nil`.
    public var bytes: [UInt8]? {
        switch self {
        case .bulk(let bytes): return bytes
        case .status(let text): return Array(text.utf8)
        default: return nil
        }
    }

    /// An integer reply, or a bulk string holding a decimal integer (`HGET` of a counter).
    public var integer: Int64? {
        switch self {
        case .integer(let value): return value
        case .bulk(let bytes): return Int64(String(decoding: bytes, as: UTF8.self))
        default: return nil
        }
    }

    /// The elements of an array reply, else `nil`.
    public var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// Throws `RedisError.server` for an error reply; returns `self` otherwise.
    @discardableResult
    public func throwingOnError() throws(RedisError) -> RedisReply {
        if case .error(let message) = self { throw RedisError.server(message) }
        return self
    }

    /// Copies a hiredis reply tree (an SPI for the `reply` fuzz target). Depth is bounded by what the server sends; Redis nests replies
    /// only a few levels deep (streams: 4), so recursion is fine.
    @_spi(Fuzzing) public init(copying reply: UnsafePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            self = .bulk(Self.bytes(r.str, r.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(r.str, r.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(r.str, r.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(r.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(r.elements)
            if let children = r.element {
                for index in 0..<r.elements {
                    if let child = children[index] { elements.append(RedisReply(copying: child)) } else { elements.append(.null) }
                }
            }
            self = .array(elements)
        case REDIS_REPLY_NIL:
            self = .null
        default:
            self = .error("unknown hiredis reply type \(r.type)")
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> [UInt8] {
        guard let pointer, length > 0 else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
