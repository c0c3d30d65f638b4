import Glibc

/// An IPv4 or IPv6 address as numbers, so ranges are compared with integer masks rather than text.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    /// The 128 bits as two big-endian halves: `high` holds bytes 0…7.
    case v6(high: UInt64, low: UInt64)

    /// Parses a plain dotted-quad IPv4 address (`10.0.0.1`) or an IPv6 address without brackets
    /// (`::ffff:127.0.0.1`), as `inet_pton` reads them. Odd IPv4 spellings (`127.1`, `0x7f.1`) are
    /// not accepted here: URLs normalise those first (`SourceURL`).
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard !text.contains("%"), inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self = withUnsafeBytes(of: &v6) { raw in
            .v6(
                high: raw.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) },
                low: raw.dropFirst(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
    }

    /// An address from its network-order bytes: 4 for IPv4, 16 for IPv6, nil otherwise.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4:
            self = .v4(bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        case 16:
            let high = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes.dropFirst(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self = .v6(high: high, low: low)
        default:
            return nil
        }
    }

    public var isIPv4: Bool {
        if case .v4 = self { return true }
        return false
    }

    /// The conventional text form (`inet_ntop`): `127.0.0.1`, `::ffff:127.0.0.1`, `fe80::1`.
    public var description: String {
        switch self {
        case .v4(let value):
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        case .v6(let high, let low):
            var raw = in6_addr()
            withUnsafeMutableBytes(of: &raw) { out in
                for i in 0..<8 {
                    out[i] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * i))
                    out[8 + i] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * i))
                }
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else {
                return String(high, radix: 16) + ":" + String(low, radix: 16)
            }
            return String(decoding: text.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

/// A CIDR range such as `10.0.0.0/8` or `fc00::/7`.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// A range from an address and a prefix length (0…32 for IPv4, 0…128 for IPv6). Host bits
    /// set in `address` are ignored.
    public init?(_ address: IPAddress, prefixLength: Int) {
        let bits = address.isIPv4 ? 32 : 128
        guard (0...bits).contains(prefixLength) else { return nil }
        self.address = address
        self.prefixLength = prefixLength
    }

    /// Parses `10.1.0.0/16`, `fd00::/8`, or a single address (`192.168.1.5`, a /32 or /128).
    public init?(cidr text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
        var length = address.isIPv4 ? 32 : 128
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy(\.isASCII),
                let parsed = Int(parts[1])
            else { return nil }
            length = parsed
        }
        self.init(address, prefixLength: length)
    }

    /// True when `candidate` is in this range (an IPv4 address is never in an IPv6 range).
    public func contains(_ candidate: IPAddress) -> Bool {
        switch (address, candidate) {
        case (.v4(let base), .v4(let value)):
            guard prefixLength > 0 else { return true }
            let mask = UInt32.max << UInt32(32 - prefixLength)
            return base & mask == value & mask
        case (.v6(let baseHigh, let baseLow), .v6(let high, let low)):
            let highBits = min(prefixLength, 64)
            let lowBits = max(prefixLength - 64, 0)
            let highMask: UInt64 = highBits == 0 ? 0 : UInt64.max << UInt64(64 - highBits)
            let lowMask: UInt64 = lowBits == 0 ? 0 : UInt64.max << UInt64(64 - lowBits)
            return baseHigh & highMask == high & highMask && baseLow & lowMask == low & lowMask
        default:
            return false
        }
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
