/// Hexadecimal digits read and written as ASCII bytes: colours (`#RRGGBB`), percent-escapes,
/// digests and ids. One definition, so every parser accepts the same digits.
public enum HexDigits {
    /// The value of one hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), or nil for any other byte.
    ///
    /// `@inlinable` because percent-decoding calls it for every byte of a `data:` payload.
    @inlinable @inline(__always)
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `bytes` spelled as two lower-case hexadecimal digits each (`[0xAB, 0x01]` → `ab01`).
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(lowercaseDigits[Int(byte >> 4)])
            out.append(lowercaseDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `0123456789abcdef` as bytes.
    public static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)
    /// `0123456789ABCDEF` as bytes.
    public static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
