/// The UTF-8 bytes of a source, output or grant being classified (`GrantTarget`): the scans it
/// needs, each a loop over bytes, so checking a job's source costs no `Character` walk and no
/// Foundation search. Every delimiter it looks for is ASCII, and no UTF-8 sequence of another
/// scalar holds an ASCII byte, so a byte found is always that character.
///
/// It only lives inside `String.withUTF8`'s closure: the strings it makes are copies.
struct GrantBytes {
    private let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    /// The byte at `offset`, or nil past the end.
    func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// The bytes in `range`.
    func slice(_ range: Range<Int>) -> GrantBytes {
        GrantBytes(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    func string() -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the bytes hold the ASCII character `ascii`.
    func contains(_ ascii: Unicode.Scalar) -> Bool {
        bytes.contains(UInt8(ascii: ascii))
    }

    /// The offset of the first byte from `start` that is one of the ASCII `delimiters`, or `count`.
    func firstIndex(from start: Int, of delimiters: StaticString) -> Int {
        let set = UnsafeBufferPointer(start: delimiters.utf8Start, count: delimiters.utf8CodeUnitCount)
        var offset = start
        while offset < bytes.count, !set.contains(bytes[offset]) { offset += 1 }
        return offset
    }

    /// The offset of the `:` ending a scheme (`GrantTarget.scheme(of:)`), or nil when the bytes
    /// before the first `:` are not one (or there is no `:`).
    func schemeEnd() -> Int? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 1, Self.isLetter(bytes[0]) else { return nil }
        for byte in bytes[1..<colon] where !(Self.isLetter(byte) || Self.isDigit(byte) || "+-.".utf8.contains(byte)) {
            return nil
        }
        return colon
    }

    /// The bytes in `range`, lower-cased: ASCII letters byte by byte, or, when any byte is not
    /// ASCII, by Unicode's rules (`String.lowercased()`).
    func lowercased(_ range: Range<Int>) -> String {
        let part = bytes[range]
        guard part.allSatisfy({ $0 < 0x80 }) else { return String(decoding: part, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: part.count) { buffer in
            for (offset, byte) in part.enumerated() {
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            }
            return part.count
        }
    }

    /// What keeps a path from matching a prefix: a control character, or a `.` or `..` segment.
    func segmentProblem() -> String? {
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "has a control character" }
        var start = 0
        while start <= bytes.count {
            let end = firstIndex(from: start, of: "/")
            let length = end - start
            if length == 1 || length == 2, bytes[start..<end].allSatisfy({ $0 == UInt8(ascii: ".") }) {
                return "has a . or .. segment"
            }
            start = end + 1
        }
        return nil
    }

    /// Whether the bytes hold `%2F`, `%5C` or `%2E`, in either case.
    func hasEscapedSeparator() -> Bool {
        var offset = 0
        while offset + 2 < bytes.count {
            if bytes[offset] == UInt8(ascii: "%") {
                let high = bytes[offset + 1]
                let low = bytes[offset + 2] | 0x20
                if (high == UInt8(ascii: "2") && (low == UInt8(ascii: "f") || low == UInt8(ascii: "e")))
                    || (high == UInt8(ascii: "5") && low == UInt8(ascii: "c"))
                {
                    return true
                }
            }
            offset += 1
        }
        return false
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
