/// What kind of destination an address is, as far as the SSRF guard cares.
///
/// Three groups: the public internet (always fine), internal networks (loopback, RFC 1918,
/// carrier-grade NAT, link-local, IPv6 unique-local… refused unless the policy allows them), and
/// addresses that are never a source (unspecified, multicast, broadcast, reserved) which only an
/// explicit address range can allow.
public enum IPAddressClass: String, Sendable, Hashable, CaseIterable {
    case publicInternet = "public"
    case loopback
    /// RFC 1918: 10/8, 172.16/12, 192.168/16.
    case privateNetwork = "private"
    /// RFC 6598 carrier-grade NAT, 100.64/10.
    case sharedAddressSpace = "carrier-grade NAT"
    /// 169.254/16 (cloud metadata services live here) and fe80::/10.
    case linkLocal = "link-local"
    /// fc00::/7.
    case uniqueLocal = "unique-local"
    /// fec0::/10, deprecated but still routed inside some networks.
    case siteLocal = "site-local"
    /// IETF protocol assignments, documentation, benchmarking and local-use NAT64 ranges: never
    /// on the public internet, so possibly inside someone's network.
    case specialPurpose = "special-purpose"
    /// 0.0.0.0/8 and `::` (on Linux, connecting to 0.0.0.0 reaches the local host).
    case unspecified
    case multicast
    case broadcast
    /// 240/4, 100::/64, and IPv6 space outside 2000::/3 that is not one of the ranges above.
    case reserved

    /// Internal networks: allowed only when the policy allows private networks.
    public var isInternal: Bool {
        switch self {
        case .loopback, .privateNetwork, .sharedAddressSpace, .linkLocal, .uniqueLocal, .siteLocal,
            .specialPurpose:
            return true
        default:
            return false
        }
    }

    /// Never a place to fetch an image from; refused even when private networks are allowed.
    public var isNeverASource: Bool {
        switch self {
        case .unspecified, .multicast, .broadcast, .reserved: return true
        default: return false
        }
    }

    /// "a loopback address", for messages.
    public var phrase: String {
        switch self {
        case .publicInternet: return "a public address"
        case .unspecified: return "the unspecified address"
        case .broadcast: return "the broadcast address"
        case .privateNetwork: return "a private (RFC 1918) address"
        case .sharedAddressSpace: return "a carrier-grade NAT address"
        default: return "a \(rawValue) address"
        }
    }
}

/// An address's class, and for IPv6 forms that carry an IPv4 address (IPv4-mapped, -compatible,
/// -translated, NAT64, 6to4, Teredo) the IPv4 address the class was taken from: the packets end
/// up there, so `::ffff:127.0.0.1` is as much loopback as `127.0.0.1`.
public struct IPAddressClassification: Sendable, Hashable {
    public var addressClass: IPAddressClass
    public var embeddedIPv4: IPAddress?
    /// How the IPv4 address is embedded ("IPv4-mapped"), when it is.
    public var embedding: String?

    /// "::ffff:127.0.0.1 is an IPv4-mapped form of 127.0.0.1, a loopback address".
    public func explain(_ address: IPAddress) -> String {
        if let embeddedIPv4, let embedding {
            return "\(address) is an \(embedding) form of \(embeddedIPv4), \(addressClass.phrase)"
        }
        return "\(address) is \(addressClass.phrase)"
    }
}

extension IPAddress {
    /// The address's class (see `IPAddressClass`), looking through IPv6 forms that embed IPv4.
    public var classification: IPAddressClassification {
        switch self {
        case .v4(let value):
            return IPAddressClassification(addressClass: Self.classifyIPv4(value))
        case .v6(let high, let low):
            if let (embedded, how) = Self.embeddedIPv4(high: high, low: low) {
                return IPAddressClassification(
                    addressClass: Self.classifyIPv4(embedded),
                    embeddedIPv4: .v4(embedded), embedding: how)
            }
            return IPAddressClassification(addressClass: Self.classifyIPv6(high: high, low: low))
        }
    }

    /// IPv4 special-purpose ranges (RFC 6890), most specific first where they overlap.
    private static let ipv4Ranges: [(base: UInt32, bits: UInt32, class: IPAddressClass)] = [
        (0x0000_0000, 8, .unspecified),  // 0.0.0.0/8
        (0x0A00_0000, 8, .privateNetwork),  // 10/8
        (0x6440_0000, 10, .sharedAddressSpace),  // 100.64/10
        (0x7F00_0000, 8, .loopback),  // 127/8
        (0xA9FE_0000, 16, .linkLocal),  // 169.254/16
        (0xAC10_0000, 12, .privateNetwork),  // 172.16/12
        (0xC000_0000, 24, .specialPurpose),  // 192.0.0.0/24 IETF protocol assignments
        (0xC000_0200, 24, .specialPurpose),  // 192.0.2.0/24 TEST-NET-1
        (0xC058_6300, 24, .specialPurpose),  // 192.88.99.0/24 6to4 relay anycast
        (0xC0A8_0000, 16, .privateNetwork),  // 192.168/16
        (0xC612_0000, 15, .specialPurpose),  // 198.18/15 benchmarking
        (0xC633_6400, 24, .specialPurpose),  // 198.51.100/24 TEST-NET-2
        (0xCB00_7100, 24, .specialPurpose),  // 203.0.113/24 TEST-NET-3
        (0xE000_0000, 4, .multicast),  // 224/4
        (0xFFFF_FFFF, 32, .broadcast),  // 255.255.255.255
        (0xF000_0000, 4, .reserved),  // 240/4
    ]

    private static func classifyIPv4(_ value: UInt32) -> IPAddressClass {
        for range in ipv4Ranges where value & (UInt32.max << (32 - range.bits)) == range.base {
            return range.class
        }
        return .publicInternet
    }

    /// The IPv4 address inside an IPv6 address that forwards to one, and the form's name.
    private static func embeddedIPv4(high: UInt64, low: UInt64) -> (UInt32, String)? {
        let low32 = UInt32(truncatingIfNeeded: low)
        if high == 0 {
            switch low >> 32 {
            case 0x0000_FFFF: return (low32, "IPv4-mapped")  // ::ffff:0:0/96
            case 0xFFFF_0000: return (low32, "IPv4-translated")  // ::ffff:0:0:0/96
            case 0 where low > 1: return (low32, "IPv4-compatible")  // ::/96 except :: and ::1
            default: return nil
            }
        }
        if high == 0x0064_FF9B_0000_0000, low >> 32 == 0 {  // 64:ff9b::/96
            return (low32, "NAT64")
        }
        if high >> 48 == 0x2002 {  // 2002::/16
            return (UInt32(truncatingIfNeeded: high >> 16), "6to4")
        }
        if high >> 32 == 0x2001_0000 {  // 2001::/32, client obfuscated
            return (~low32, "Teredo")
        }
        return nil
    }

    private static func classifyIPv6(high: UInt64, low: UInt64) -> IPAddressClass {
        if high == 0 && low == 0 { return .unspecified }
        if high == 0 && low == 1 { return .loopback }
        let top16 = high >> 48
        if high >> 16 == 0x0064_FF9B_0001 { return .specialPurpose }  // 64:ff9b:1::/48
        if high == 0x0100_0000_0000_0000 { return .reserved }  // 100::/64 discard-only
        if high >> 32 == 0x2001_0DB8 { return .specialPurpose }  // 2001:db8::/32
        if top16 & 0xFE00 == 0xFC00 { return .uniqueLocal }  // fc00::/7
        if top16 & 0xFFC0 == 0xFE80 { return .linkLocal }  // fe80::/10
        if top16 & 0xFFC0 == 0xFEC0 { return .siteLocal }  // fec0::/10
        if top16 & 0xFF00 == 0xFF00 { return .multicast }  // ff00::/8
        if top16 & 0xE000 != 0x2000 { return .reserved }  // outside 2000::/3
        return .publicInternet
    }
}
