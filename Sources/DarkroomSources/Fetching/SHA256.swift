import Crypto
import DarkroomSystem

/// SHA-256 for content-addressed keys (`data:` URIs, long lease names), through swift-crypto
/// (the same implementation the disk cache names its entries with) rather than a copy of our own.
///
/// Incremental: feed bytes with `update`, then call `finalize` once. The one-shot helpers
/// `digest(of:)` and `hexDigest(of:)` cover the common case. Named `SHA256Hasher` rather than
/// `SHA256` so that a file importing both this module and swift-crypto sees no ambiguity. Not
/// `Sendable`, as swift-crypto's running hash is not: a hasher is filled and finished in one place.
public struct SHA256Hasher {
    private var hasher = SHA256()

    public init() {}

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        hasher.update(data: bytes)
    }

    /// Returns the 32-byte digest. The hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }

    /// The digest of `bytes`.
    public static func digest(of bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// The digest of `bytes` as 64 lower-case hexadecimal digits.
    public static func hexDigest(of bytes: [UInt8]) -> String {
        hex(digest(of: bytes))
    }

    /// Lower-case hexadecimal spelling of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        HexDigits.lowercase(bytes)
    }
}
