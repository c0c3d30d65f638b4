/// Reads the fuzzer's bytes as a stream of choices, for targets that build structured input
/// (`address`, `plugin`); past the end every byte is zero.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ buffer: UnsafeRawBufferPointer) { bytes = Array(buffer) }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    /// A choice among `count` options.
    mutating func choice(_ count: Int) -> Int { Int(byte()) % count }
}
