import Crypto

/// The file name of a cache entry: the SHA-256 of its key, as 64 lowercase hex digits.
///
/// Hashing makes any key (URLs, chain identifiers with spaces and slashes) a fixed-length safe
/// file name, spreads entries evenly over the fan-out directories, and keeps keys private in
/// directory listings. The first two bytes choose the directories: `ab/cd/abcd…`.
struct EntryName: Hashable, Sendable {
    /// The 32 digest bytes as four big-endian words (compact for scans of a million entries).
    let words: (UInt64, UInt64, UInt64, UInt64)

    init(key: String) {
        let digest = SHA256.hash(data: Array(key.utf8))
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in digest.enumerated() {
            words[index / 8] = words[index / 8] << 8 | UInt64(byte)
        }
        self.words = (words[0], words[1], words[2], words[3])
    }

    private init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    /// Parses a file name of exactly 64 lowercase hex digits; nil for anything else, so files that
    /// are not entries (temporary files, an operator's notes) are never mistaken for one.
    init?(fileName: UnsafePointer<CChar>) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for index in 0..<64 {
            let character = UInt8(bitPattern: fileName[index])
            let nibble: UInt64
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(character - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(character - UInt8(ascii: "a") + 10)
            default: return nil  // includes the terminating NUL of a shorter name
            }
            switch index >> 4 {
            case 0: words.0 = words.0 << 4 | nibble
            case 1: words.1 = words.1 << 4 | nibble
            case 2: words.2 = words.2 << 4 | nibble
            default: words.3 = words.3 << 4 | nibble
            }
        }
        guard fileName[64] == 0 else { return nil }
        self.init(words: words)
    }

    /// The first digest byte: the first-level directory.
    var firstByte: UInt8 { UInt8(truncatingIfNeeded: words.0 >> 56) }
    /// The second digest byte: the second-level directory.
    var secondByte: UInt8 { UInt8(truncatingIfNeeded: words.0 >> 48) }

    /// The 64-digit lowercase hex name.
    var hex: String {
        var characters: [UInt8] = []
        characters.reserveCapacity(64)
        for word in [words.0, words.1, words.2, words.3] {
            for shift in stride(from: 60, through: 0, by: -4) {
                characters.append(Self.digits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `ab/cd/abcd…`: the entry's path inside its area.
    var relativePath: String {
        let name = hex
        let utf8 = Array(name.utf8)
        return String(decoding: utf8[0..<2], as: UTF8.self) + "/" + String(decoding: utf8[2..<4], as: UTF8.self) + "/" + name
    }

    static func == (lhs: EntryName, rhs: EntryName) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The two-digit hex name of a fan-out directory.
    static func directoryName(_ byte: UInt8) -> String {
        String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// The fan-out byte a two-lowercase-hex-digit directory name stands for; nil otherwise.
    static func directoryByte(_ name: UnsafePointer<CChar>) -> UInt8? {
        func nibble(_ c: CChar) -> UInt8? {
            let c = UInt8(bitPattern: c)
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        guard let high = nibble(name[0]), let low = nibble(name[1]), name[2] == 0 else { return nil }
        return high << 4 | low
    }
}

/// The cache's file-name rules as the fuzz target `cachename` reaches them (docs/fuzzing.md);
/// an SPI, not part of the cache's API.
@_spi(Fuzzing) public enum CacheEntryNames {
    /// The entry name `fileName` is (its 64 hex digits printed back), or nil for any other name.
    public static func entryName(_ fileName: UnsafePointer<CChar>) -> String? { EntryName(fileName: fileName)?.hex }

    /// The fan-out byte a directory name stands for, or nil.
    public static func directoryByte(_ name: UnsafePointer<CChar>) -> UInt8? { EntryName.directoryByte(name) }

    /// The directory name of a fan-out byte.
    public static func directoryName(_ byte: UInt8) -> String { EntryName.directoryName(byte) }
}
