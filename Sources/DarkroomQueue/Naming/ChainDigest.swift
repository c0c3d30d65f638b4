import DarkroomSystem

/// The `{chain}` field of an output-name template: a short digest of a job's canonical chain
/// text, so two chains into one directory get different names that stay the same on every run.
///
/// Defined for good (names written to disk depend on it): the 64-bit FNV-1a hash (offset basis
/// `0xcbf29ce484222325`, prime `0x100000001b3`) of the text's UTF-8 bytes, written as 16
/// lower-case hexadecimal digits, of which the first 12 are kept (the hash's high 48 bits).
/// FNV-1a rather than SHA-256 because the client library links no C code (swift-crypto's SHA-256
/// is BoringSSL); this is a name, not a security boundary: 48 bits make an accidental clash
/// between two chains of one request about one in 10^14, and enqueue refuses it if it happens.
public enum ChainDigest {
    /// Digits kept.
    public static let length = 12

    /// The digest of `canonicalChain`, 12 lower-case hexadecimal digits.
    public static func of(_ canonicalChain: String) -> String {
        let hash = fnv1a64(canonicalChain)
        let digits = HexDigits.lowercaseDigits
        var out: [UInt8] = []
        out.reserveCapacity(length)
        for index in 0..<length {
            let shift = UInt64(60 - 4 * index)
            out.append(digits[Int((hash >> shift) & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
