import DarkroomQueue
import Foundation

/// One stream entry as Redis returns it: `[id, [field, value, field, value…]]`.
struct StreamEntry: Sendable {
    var id: String
    var fields: [(name: [UInt8], value: [UInt8])]

    /// The value of `name`, or nil.
    func value(_ name: StaticString) -> [UInt8]? {
        name.withUTF8Buffer { wanted in fields.first { $0.name.elementsEqual(wanted) }?.value }
    }

    /// The job record: the `job` field. An entry without one (written by someone else) is
    /// garbage; its fields, `name=value` separated by spaces, are what the dead letter keeps.
    var payload: Data {
        if let job = value("job") { return Data(job) }
        var text: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { text.append(UInt8(ascii: " ")) }
            text += field.name + [UInt8(ascii: "=")] + field.value
        }
        return Data(text)
    }

    var hasJobField: Bool { value("job") != nil }
}

/// Reading the shapes of stream replies. Anything unexpected is a `RedisError.protocolError`
/// naming what was expected, so a Redis that answers oddly fails loudly instead of losing work.
enum StreamReplies {
    static func entry(_ reply: RedisReply) throws(RedisError) -> StreamEntry {
        guard let parts = reply.array, parts.count == 2, let id = parts[0].string else {
            throw .protocolError("expected a stream entry [id, fields], got \(reply)")
        }
        return StreamEntry(id: id, fields: try fields(parts[1]))
    }

    static func fields(_ reply: RedisReply) throws(RedisError) -> [(name: [UInt8], value: [UInt8])] {
        if reply.isNull { return [] }  // an entry deleted while pending
        guard let flat = reply.array, flat.count % 2 == 0 else {
            throw .protocolError("expected stream entry fields, got \(reply)")
        }
        var pairs: [(name: [UInt8], value: [UInt8])] = []
        pairs.reserveCapacity(flat.count / 2)
        var index = 0
        while index < flat.count {
            guard let name = flat[index].bytes, let value = flat[index + 1].bytes else {
                throw .protocolError("expected a stream field name and value, got \(flat[index]), \(flat[index + 1])")
            }
            pairs.append((name, value))
            index += 2
        }
        return pairs
    }

    /// `XRANGE`/`XREVRANGE` replies: a list of entries.
    static func entries(_ reply: RedisReply) throws(RedisError) -> [StreamEntry] {
        if reply.isNull { return [] }
        guard let list = reply.array else { throw .protocolError("expected a list of stream entries, got \(reply)") }
        var entries: [StreamEntry] = []
        entries.reserveCapacity(list.count)
        for item in list { entries.append(try entry(item)) }
        return entries
    }

    /// `XREAD`/`XREADGROUP` replies: `[[stream key, entries]…]`, or null when nothing came.
    static func streams(_ reply: RedisReply) throws(RedisError) -> [(key: String, entries: [StreamEntry])] {
        if reply.isNull { return [] }
        guard let list = reply.array else { throw .protocolError("expected XREAD streams, got \(reply)") }
        var result: [(key: String, entries: [StreamEntry])] = []
        for item in list {
            guard let pair = item.array, pair.count == 2, let key = pair[0].string else {
                throw .protocolError("expected [stream, entries], got \(item)")
            }
            result.append((key, try entries(pair[1])))
        }
        return result
    }

    static func integer(_ reply: RedisReply, _ what: String) throws(RedisError) -> Int {
        guard let value = reply.integer, let int = Int(exactly: value) else {
            throw .protocolError("expected an integer for \(what), got \(reply)")
        }
        return int
    }
}
