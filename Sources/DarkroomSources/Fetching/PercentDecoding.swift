import DarkroomSystem

/// A `%` not followed by two hexadecimal digits.
struct PercentDecodingError: Error, Equatable {
    /// Byte offset of the `%` in the encoded text.
    let offset: Int
}

/// Reads percent-encoded text (RFC 3986 §2.1) one decoded byte at a time, without allocating,
/// so callers can count and validate before they allocate the decoded buffer. Used for `file://`
/// paths and `data:` payloads. Strict: a `%` must be followed by two hexadecimal digits (browsers
/// pass such a `%` through; an image source with one is far more likely damaged than intended).
/// Bytes with their offsets, one at a time: either plain (`PlainByteIterator`) or with
/// percent-escapes decoded (`PercentDecodingIterator`). Decoders are generic over it so the
/// common unescaped case runs a plain loop.
protocol EncodedByteIterator {
    init(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func next() throws(PercentDecodingError) -> (byte: UInt8, offset: Int)?
}

/// The bytes as they are.
struct PlainByteIterator: EncodedByteIterator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always)
    mutating func next() throws(PercentDecodingError) -> (byte: UInt8, offset: Int)? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return (bytes[index], index)
    }
}

struct PercentDecodingIterator: EncodedByteIterator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next decoded byte and the offset where its encoding starts, or nil at the end.
    @inline(__always)
    mutating func next() throws(PercentDecodingError) -> (byte: UInt8, offset: Int)? {
        guard index < bytes.count else { return nil }
        let offset = index
        let byte = bytes[index]
        guard byte == UInt8(ascii: "%") else {
            index += 1
            return (byte, offset)
        }
        guard index + 2 < bytes.count,
            let high = HexDigits.value(bytes[index + 1]),
            let low = HexDigits.value(bytes[index + 2])
        else {
            throw PercentDecodingError(offset: offset)
        }
        index += 3
        return (high << 4 | low, offset)
    }
}

enum PercentDecoding {
    /// The number of bytes `bytes` decodes to, validating every escape.
    static func decodedCount(_ bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> Int {
        var iterator = PercentDecodingIterator(bytes)
        var count = 0
        while try iterator.next() != nil { count += 1 }
        return count
    }

    /// The decoded bytes of `bytes`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(PercentDecodingError) -> [UInt8] {
        var iterator = PercentDecodingIterator(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        while let (byte, _) = try iterator.next() { output.append(byte) }
        return output
    }

    /// The decoded bytes of the UTF-8 of `text`.
    static func decode(_ text: Substring) throws(PercentDecodingError) -> [UInt8] {
        var copy = String(text)
        // `withUTF8` is `rethrows`, which erases the error type: carry it out in a `Result`.
        return try copy.withUTF8 { buffer in
            Result { () throws(PercentDecodingError) in try decode(buffer) }
        }.get()
    }
}

/// Percent-decodes `text` (`%20` → space) with the same strict rules the providers use; nil when
/// an escape is malformed or the result is not UTF-8. For naming things after URL paths.
public func percentDecoded(_ text: String) -> String? {
    guard let bytes = try? PercentDecoding.decode(Substring(text)) else { return nil }
    return String(validating: bytes, as: UTF8.self)
}
