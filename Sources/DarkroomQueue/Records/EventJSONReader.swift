import DarkroomSystem
import Glibc

/// Reads an event record in its canonical form — exactly the bytes `EventJSONWriter` (and so
/// `JSONEncoder`) writes — without `JSONDecoder`, which cost more than half of a coordinator's CPU.
///
/// It is a fast path, never the judge: it accepts a record only when it is complete for its type
/// (`JobEvent.problem`) and writing the event back with `EventJSONWriter` gives the very same
/// bytes. Anything else — unknown keys, another key order, other number or escape spellings, other
/// versions or types, invalid values — returns nil, and the caller decodes with `JSONDecoder`,
/// which decides. So both paths give the same answer for every input; `EventJSONReaderTests`
/// checks them against each other on randomised records.
package enum EventJSONReader {
    package static func read(_ bytes: UnsafeRawBufferPointer) -> JobEvent? {
        var scanner = Scanner(bytes: bytes)
        guard let event = scanner.event(), scanner.atEnd, event.problem == nil else { return nil }
        // The round trip is what makes the fast path safe: only canonical bytes pass.
        var written: [UInt8] = []
        written.reserveCapacity(bytes.count + 16)
        EventJSONWriter.write(event, into: &written)
        guard written.count == bytes.count, written.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        else { return nil }
        return event
    }

    /// A cursor over the record's bytes; every method returns nil (or false) on anything it does
    /// not expect.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: count)
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            index += count
            return true
        }

        /// Whether the next key is `"name"` (the quote and colon included); consumes it if so.
        mutating func key(_ text: StaticString) -> Bool { literal(text) }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            var plain = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return plain ? String(decoding: slice, as: UTF8.self) : Self.unescape(slice)
                }
                if byte == UInt8(ascii: "\\") {
                    plain = false
                    index += 1
                }
                index += 1
            }
            return nil
        }

        /// The escapes `JobJSONWriter.string` writes; nil for any other.
        static func unescape(_ slice: UnsafeRawBufferPointer) -> String? {
            var out: [UInt8] = []
            out.reserveCapacity(slice.count)
            var index = 0
            while index < slice.count {
                let byte = slice[index]
                guard byte == UInt8(ascii: "\\") else {
                    out.append(byte)
                    index += 1
                    continue
                }
                guard index + 1 < slice.count else { return nil }
                switch slice[index + 1] {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "u"):
                    guard index + 5 < slice.count, slice[index + 2] == UInt8(ascii: "0"), slice[index + 3] == UInt8(ascii: "0"),
                        let high = HexDigits.value(slice[index + 4]), let low = HexDigits.value(slice[index + 5])
                    else { return nil }
                    out.append(UInt8(high << 4 | low))
                    index += 4
                default: return nil
                }
                index += 2
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// An optional `-` and 1 to 18 digits (so no overflow); leading zeros and `-0` are read
        /// here and refused by the round trip.
        mutating func integer() -> Int? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > start, index - start <= 18 else { return nil }
            return negative ? -value : value
        }

        /// A string holding a timestamp, parsed in place.
        mutating func timestamp() -> Timestamp? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            index = end + 1
            return Timestamp(iso8601Bytes: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }

        mutating func double() -> Double? {
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                    UInt8(ascii: "+"), UInt8(ascii: "-"):
                    index += 1
                default:
                    guard index > start else { return nil }
                    return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
            }
            return nil
        }

        mutating func boolean() -> Bool? {
            if literal("true") { return true }
            if literal("false") { return false }
            return nil
        }

        /// The keys in `EventJSONWriter`'s order.
        mutating func event() -> JobEvent? {
            guard literal(#"{"at":"#), let at = timestamp() else { return nil }
            var attempt: Int?
            var batch: String?
            var chain: String?
            var count: Int?
            var error: (code: String, message: String, willRetry: Bool, written: [String]?)?
            var job: JobID?
            var metadata: String?
            var result: JobResult?
            var source: String?
            var worker: String?
            if key(#","attempt":"#) {
                guard let value = integer() else { return nil }
                attempt = value
            }
            if key(#","batch":"#) {
                guard let value = string() else { return nil }
                batch = value
            }
            if key(#","chain":"#) {
                guard let value = string() else { return nil }
                chain = value
            }
            if key(#","count":"#) {
                guard let value = integer() else { return nil }
                count = value
            }
            if key(#","error":{"code":"#) {
                guard let code = string(), literal(#","message":"#), let message = string(), literal(#","willRetry":"#),
                    let willRetry = boolean()
                else { return nil }
                var written: [String]?
                if key(#","written":"#) {
                    guard let value = stringList() else { return nil }
                    written = value
                }
                guard literal("}") else { return nil }
                error = (code, message, willRetry, written)
            }
            guard key(#","id":"#), let id = string() else { return nil }
            if key(#","job":"#) {
                guard let text = string(), let value = JobID(rawValue: text) else { return nil }
                job = value
            }
            if key(#","metadata":"#) {
                guard let value = string() else { return nil }
                metadata = value
            }
            if key(#","result":"#) {
                guard let value = self.result() else { return nil }
                result = value
            }
            if key(#","source":"#) {
                guard let value = string() else { return nil }
                source = value
            }
            guard key(#","type":"#), let typeName = string(), let type = JobEventType(rawValue: typeName),
                literal(#","version":1"#)
            else { return nil }
            if key(#","worker":"#) {
                guard let value = string() else { return nil }
                worker = value
            }
            guard literal("}") else { return nil }
            return JobEvent(
                id: id, type: type, at: at, batch: batch, job: job, worker: worker, attempt: attempt, count: count,
                result: result, error: error.map { JobError(code: $0.code, message: $0.message, written: $0.written) },
                willRetry: type == .failed ? error?.willRetry : nil, source: source, chain: chain, metadata: metadata)
        }

        mutating func result() -> JobResult? {
            guard let (bytes, cache, etag) = opening(), literal(#","format":"#), let format = string(), literal(#","height":"#),
                let height = integer(), literal(#","ms":{"#)
            else { return nil }
            // Each stage is optional; the first present one has no leading comma.
            var first = true
            var failed = false
            func stage(_ name: StaticString, _ later: StaticString) -> Double? {
                guard !failed, first ? key(name) : key(later) else { return nil }
                guard let value = double(), value.isFinite, value >= 0 else {
                    failed = true
                    return nil
                }
                first = false
                return value
            }
            let decode = stage(#""decode":"#, #","decode":"#)
            let encode = stage(#""encode":"#, #","encode":"#)
            let fetch = stage(#""fetch":"#, #","fetch":"#)
            let process = stage(#""process":"#, #","process":"#)
            let store = stage(#""store":"#, #","store":"#)
            guard !failed else { return nil }
            let timings = StageTimings(fetch: fetch, decode: decode, process: process, encode: encode, store: store)
            guard literal("}") else { return nil }
            var output: String?
            if key(#","output":"#) {
                guard let value = string() else { return nil }
                output = value
            }
            var placeholders: Placeholders?
            if key(#","placeholders":{"#) {
                guard let value = placeholderMembers() else { return nil }
                placeholders = value
            }
            var renditions: [RenditionResult]?
            if key(#","renditions":["#) {
                var list: [RenditionResult] = []
                repeat {
                    guard let rendition = self.rendition() else { return nil }
                    list.append(rendition)
                } while literal(",")
                guard literal("]") else { return nil }
                renditions = list
            }
            var sha256: String?
            if key(#","sha256":"#) {
                guard let value = string() else { return nil }
                sha256 = value
            }
            guard literal(#","width":"#), let width = integer(), literal("}") else { return nil }
            return JobResult(
                output: output, format: format, width: width, height: height, bytes: bytes, cache: cache, sha256: sha256,
                ms: timings, renditions: renditions, etag: etag, placeholders: placeholders)
        }

        /// A placeholders object's members after its `{`, and its `}`: each kind optional, in key order.
        mutating func placeholderMembers() -> Placeholders? {
            var found = Placeholders()
            var first = true
            var failed = false
            func member(_ name: StaticString, _ later: StaticString) -> String? {
                guard !failed, first ? key(name) : key(later) else { return nil }
                guard let value = string() else {
                    failed = true
                    return nil
                }
                first = false
                return value
            }
            found.blurhash = member(#""blurhash":"#, #","blurhash":"#)
            found.color = member(#""color":"#, #","color":"#)
            found.thumbhash = member(#""thumbhash":"#, #","thumbhash":"#)
            guard !failed, literal("}") else { return nil }
            return found
        }

        /// How a result and a rendition begin: `{"bytes":…,"cache":…` and an optional `,"etag":…`.
        mutating func opening() -> (bytes: Int, cache: CacheOutcome, etag: String?)? {
            guard literal(#"{"bytes":"#), let bytes = integer(), literal(#","cache":"#), let cacheName = string(),
                let cache = CacheOutcome(rawValue: cacheName)
            else { return nil }
            var etag: String?
            if key(#","etag":"#) {
                guard let value = string() else { return nil }
                etag = value
            }
            return (bytes, cache, etag)
        }

        /// One rendition's result, in `EventJSONWriter`'s key order.
        mutating func rendition() -> RenditionResult? {
            guard let (bytes, cache, etag) = opening(), literal(#","format":"#), let format = string(), literal(#","height":"#),
                let height = integer(), literal(#","name":"#), let name = string()
            else { return nil }
            var output: String?
            if key(#","output":"#) {
                guard let value = string() else { return nil }
                output = value
            }
            var placeholders: Placeholders?
            if key(#","placeholders":{"#) {
                guard let value = placeholderMembers() else { return nil }
                placeholders = value
            }
            var sha256: String?
            if key(#","sha256":"#) {
                guard let value = string() else { return nil }
                sha256 = value
            }
            guard literal(#","width":"#), let width = integer(), literal("}") else { return nil }
            return RenditionResult(
                name: name, output: output, format: format, width: width, height: height, bytes: bytes, cache: cache, sha256: sha256,
                etag: etag, placeholders: placeholders)
        }

        /// A JSON array of strings.
        mutating func stringList() -> [String]? {
            guard literal("[") else { return nil }
            var values: [String] = []
            if literal("]") { return values }
            repeat {
                guard let value = string() else { return nil }
                values.append(value)
            } while literal(",")
            return literal("]") ? values : nil
        }

    }
}
