import Glibc

/// The kernel's random bits, fetched 256 bytes at a time instead of 8.
///
/// `SystemRandomNumberGenerator` makes one `getrandom` system call per 64-bit value: at the two
/// values a job id takes, that was about a tenth of `enqueue`'s client CPU on a 100,000-job list.
/// This draws from the same source (`getentropy`, glibc's wrapper of `getrandom`, whose limit of
/// 256 bytes a call sets the buffer's size); only the number of calls changes. Not for secrets
/// that must not sit in memory (a buffer holds the next values): API keys and webhook secrets draw
/// from `SystemRandomNumberGenerator` directly.
public struct BufferedSystemRandom: RandomNumberGenerator, Sendable {
    private static let capacity = 32
    private var values = [UInt64](repeating: 0, count: BufferedSystemRandom.capacity)
    private var position = BufferedSystemRandom.capacity

    public init() {}

    public mutating func next() -> UInt64 {
        if position == Self.capacity { refill() }
        defer { position += 1 }
        return values[position]
    }

    private mutating func refill() {
        let filled = values.withUnsafeMutableBytes { getentropy($0.baseAddress!, $0.count) == 0 }
        if !filled {
            // getentropy fails only where getrandom does not exist (kernels before 3.17); the
            // standard generator has its own fallback there.
            var system = SystemRandomNumberGenerator()
            for index in values.indices { values[index] = system.next() }
        }
        position = 0
    }
}
