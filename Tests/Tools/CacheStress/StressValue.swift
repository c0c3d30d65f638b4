/// The value the stress tool stores under key `stress-<index>`: derived from the key alone, so any
/// process can check any entry it reads, and a truncated, mixed or foreign file is caught.
///
/// Layout: the text `stress-<index>:<length>\n`, then byte `j` = low byte of
/// `(h >> ((j % 8) * 8)) + j * 131`, where `h` is the 64-bit FNV-1a hash of the key. The length is
/// `maxBytes` with `fixedSize`, else `64 + h % (maxBytes - 63)`.
enum StressValue {
    static func key(_ index: Int) -> String { "stress-\(index)" }

    static func bytes(index: Int, maxBytes: Int, fixedSize: Bool) -> [UInt8] {
        let key = key(index)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let maxBytes = max(64, maxBytes)
        let length = fixedSize ? maxBytes : 64 + Int(hash % UInt64(maxBytes - 63))
        let header = Array("\(key):\(length)\n".utf8)
        var bytes = [UInt8](repeating: 0, count: max(length, header.count))
        bytes.withUnsafeMutableBufferPointer { buffer in
            for j in 0..<buffer.count {
                buffer[j] =
                    j < header.count
                    ? header[j]
                    : UInt8(truncatingIfNeeded: (hash >> UInt64((j % 8) * 8)) &+ UInt64(j) &* 131)
            }
        }
        return bytes
    }
}

/// SplitMix64: a tiny seeded generator, so a stress run is reproducible from its `--seed`.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
