import Glibc

/// Why a base64 payload was rejected; offsets are byte offsets into the (encoded) payload.
enum Base64PayloadError: Error, Equatable {
    case invalidCharacter(UInt8, offset: Int)
    case misplacedPadding(offset: Int)
    case badPadding(dataCharacters: Int, paddingCharacters: Int)
    case danglingCharacter(dataCharacters: Int)
    case badEscape(offset: Int)
    /// The running decoded size passed `limit` while measuring (nothing was allocated).
    case overLimit(limit: Int)

    var message: String {
        switch self {
        case .invalidCharacter(let byte, let offset):
            let shown = byte >= 0x21 && byte < 0x7f ? "'\(Character(Unicode.Scalar(byte)))'" : "byte"
            return "invalid base64 character \(shown) (0x\(String(byte, radix: 16))) at payload offset \(offset); "
                + "only A-Z a-z 0-9 + / and trailing '=' are allowed (base64url '-' and '_' are not)"
        case .misplacedPadding(let offset):
            return "base64 padding '=' at payload offset \(offset) is followed by more data; '=' may only end the payload"
        case .badPadding(let data, let padding):
            return "base64 payload has \(data) data characters and \(padding) '=' padding characters; "
                + "padding must bring the length to a multiple of 4 with at most two '='"
        case .danglingCharacter(let data):
            return "base64 payload has \(data) data characters, one more than a multiple of 4; it is truncated or damaged"
        case .badEscape(let offset):
            return "'%' at payload offset \(offset) is not followed by two hexadecimal digits"
        case .overLimit(let limit):
            return "the data: payload decodes to more than \(limit) bytes, the source size limit (raise it with --max-source-mb); refused before decoding"
        }
    }
}

/// Base64 (RFC 4648 §4 alphabet) as `data:` URIs carry it, following the WHATWG "forgiving-base64"
/// rules browsers use: ASCII whitespace anywhere is ignored (line-wrapped payloads are common),
/// padding is optional, and the payload may itself be percent-encoded (`%2B` for `+`). Strict
/// on everything else: any other character, `=` before the end, more than two `=`, or a length
/// of 4n+1 is an error with its offset, because a damaged payload should fail loudly instead of
/// decoding to a silently truncated image.
///
/// Two passes over the encoded bytes: `measure` validates and computes the exact decoded size
/// without allocating (and stops as soon as the size passes the limit), then `decode` fills a
/// buffer of exactly that size.
enum Base64Payload {
    /// Validates `payload` and returns its decoded size; throws `.overLimit` as soon as the decoded
    /// size is known to exceed `limit`.
    static func measure(_ payload: UnsafeBufferPointer<UInt8>, limit: Int) throws(Base64PayloadError) -> Int {
        hasEscapes(payload)
            ? try measure(payload, limit: limit, as: PercentDecodingIterator.self)
            : try measureUnescaped(payload, limit: limit)
    }

    /// `measure` for a payload without `%`: a plain loop over the bytes that only leaves the fast
    /// path for a byte off the alphabet, then replays the generic pass for its exact diagnosis.
    private static func measureUnescaped(
        _ payload: UnsafeBufferPointer<UInt8>,
        limit: Int
    ) throws(Base64PayloadError) -> Int {
        let characterLimit = maxDataCharacters(forDecodedBytes: limit)
        var dataCharacters = 0
        var paddingCharacters = 0
        var clean = true
        decodeTable.withUnsafeBufferPointer { table in
            for byte in payload {
                if table[Int(byte)] != invalid {
                    dataCharacters += 1
                    if paddingCharacters > 0 || dataCharacters > characterLimit {
                        clean = false
                        return
                    }
                } else if byte == UInt8(ascii: "=") {
                    paddingCharacters += 1
                } else if !isWhitespace(byte) {
                    clean = false
                    return
                }
            }
        }
        // Misplaced padding, a bad byte or the limit: the generic pass reports it exactly.
        guard clean else { return try measure(payload, limit: limit, as: PlainByteIterator.self) }
        return try size(dataCharacters: dataCharacters, paddingCharacters: paddingCharacters, limit: limit)
    }

    /// The decoded size once the characters are counted, checking padding and length.
    private static func size(dataCharacters: Int, paddingCharacters: Int, limit: Int) throws(Base64PayloadError) -> Int {
        if paddingCharacters > 0, paddingCharacters > 2 || (dataCharacters + paddingCharacters) % 4 != 0 {
            throw .badPadding(dataCharacters: dataCharacters, paddingCharacters: paddingCharacters)
        }
        if dataCharacters % 4 == 1 { throw .danglingCharacter(dataCharacters: dataCharacters) }
        let decoded = dataCharacters / 4 * 3 + max(0, dataCharacters % 4 - 1)
        if decoded > limit { throw .overLimit(limit: limit) }
        return decoded
    }

    /// Decodes a payload `measure` accepted into exactly `count` bytes.
    static func decode(_ payload: UnsafeBufferPointer<UInt8>, count: Int) throws(Base64PayloadError) -> [UInt8] {
        hasEscapes(payload)
            ? try decode(payload, count: count, as: PercentDecodingIterator.self)
            : decodeUnescaped(payload, count: count)
    }

    /// The common case, a payload without `%`, as a plain pointer loop (it runs over up to tens
    /// of megabytes). `measure` has validated every byte, so anything off the alphabet is
    /// whitespace or padding and is skipped.
    private static func decodeUnescaped(_ payload: UnsafeBufferPointer<UInt8>, count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            var accumulator: UInt32 = 0
            var bits: UInt32 = 0
            var written = 0
            decodeTable.withUnsafeBufferPointer { table in
                for byte in payload {
                    let value = table[Int(byte)]
                    if value == invalid { continue }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        guard written < count else { return }  // cannot happen after `measure`
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                    }
                }
            }
            initialized = written
        }
    }

    private static func hasEscapes(_ payload: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = payload.baseAddress else { return false }
        return memchr(base, Int32(UInt8(ascii: "%")), payload.count) != nil
    }

    private static func measure<Bytes: EncodedByteIterator>(
        _ payload: UnsafeBufferPointer<UInt8>, limit: Int, as _: Bytes.Type
    ) throws(Base64PayloadError) -> Int {
        var iterator = Bytes(payload)
        var dataCharacters = 0
        var paddingCharacters = 0
        var firstPaddingOffset = 0
        // Each 4 data characters decode to 3 bytes; compare in characters to avoid overflow.
        let characterLimit = maxDataCharacters(forDecodedBytes: limit)
        while true {
            let next: (byte: UInt8, offset: Int)?
            do throws(PercentDecodingError) { next = try iterator.next() } catch { throw .badEscape(offset: error.offset) }
            guard let (byte, offset) = next else { break }
            if isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                if paddingCharacters == 0 { firstPaddingOffset = offset }
                paddingCharacters += 1
                continue
            }
            guard decodeTable[Int(byte)] != invalid else { throw .invalidCharacter(byte, offset: offset) }
            if paddingCharacters > 0 { throw .misplacedPadding(offset: firstPaddingOffset) }
            dataCharacters += 1
            if dataCharacters > characterLimit { throw .overLimit(limit: limit) }
        }
        return try size(dataCharacters: dataCharacters, paddingCharacters: paddingCharacters, limit: limit)
    }

    private static func decode<Bytes: EncodedByteIterator>(
        _ payload: UnsafeBufferPointer<UInt8>, count: Int, as _: Bytes.Type
    ) throws(Base64PayloadError) -> [UInt8] {
        var failure: Base64PayloadError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            var iterator = Bytes(payload)
            var accumulator: UInt32 = 0
            var bits = 0
            var written = 0
            decodeTable.withUnsafeBufferPointer { table in
                while true {
                    let next: (byte: UInt8, offset: Int)?
                    do throws(PercentDecodingError) { next = try iterator.next() } catch {
                        failure = .badEscape(offset: error.offset)
                        return
                    }
                    guard let (byte, offset) = next else { return }
                    let value = table[Int(byte)]
                    if value == invalid {
                        if isWhitespace(byte) || byte == UInt8(ascii: "=") { continue }
                        failure = .invalidCharacter(byte, offset: offset)
                        return
                    }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        guard written < count else {  // cannot happen after `measure`; never overrun
                            failure = .overLimit(limit: count)
                            return
                        }
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        written += 1
                    }
                }
            }
            initialized = written
        }
        if let failure { throw failure }
        return bytes
    }

    /// The most data characters that decode to at most `limit` bytes (saturating, never trapping).
    static func maxDataCharacters(forDecodedBytes limit: Int) -> Int {
        let limit = max(0, limit)
        let (whole, overflow) = (limit / 3).multipliedReportingOverflow(by: 4)
        if overflow { return Int.max }
        let extra = limit % 3 == 0 ? 0 : limit % 3 + 1
        let (total, overflow2) = whole.addingReportingOverflow(extra)
        return overflow2 ? Int.max : total
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0c || byte == 0x0d
    }

    private static let invalid: UInt8 = 0xff

    /// Maps an ASCII byte to its 6-bit value, or `invalid`.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()
}
