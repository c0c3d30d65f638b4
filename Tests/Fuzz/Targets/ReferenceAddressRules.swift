import Foundation

/// The address rules of docs/sources-and-policy.md ("Address classes"), written again for the
/// `address` fuzz target, independently of `IPAddressClass`: addresses are byte arrays, ranges are
/// parsed from the documented CIDR text, and the most specific matching range decides (the
/// product walks an ordered list with integer masks). Python's `ipaddress` is not used as the
/// reference because it classifies carrier-grade NAT and odd spellings differently.
enum ReferenceAddressRules {
    /// The documented table, verbatim. Addresses no IPv4 range matches are public.
    private static let ipv4Table: [(String, String)] = [
        ("0.0.0.0/8", "unspecified"),
        ("10.0.0.0/8", "private"),
        ("100.64.0.0/10", "carrier-grade NAT"),
        ("127.0.0.0/8", "loopback"),
        ("169.254.0.0/16", "link-local"),
        ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "special-purpose"),
        ("192.0.2.0/24", "special-purpose"),
        ("192.88.99.0/24", "special-purpose"),
        ("192.168.0.0/16", "private"),
        ("198.18.0.0/15", "special-purpose"),
        ("198.51.100.0/24", "special-purpose"),
        ("203.0.113.0/24", "special-purpose"),
        ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"),
        ("255.255.255.255/32", "broadcast"),
    ]

    /// The documented IPv6 table; `::/0` stands for "outside 2000::/3".
    private static let ipv6Table: [(String, String)] = [
        ("::/0", "reserved"),
        ("2000::/3", "public"),
        ("::/128", "unspecified"),
        ("::1/128", "loopback"),
        ("64:ff9b:1::/48", "special-purpose"),
        ("100::/64", "reserved"),
        ("2001:db8::/32", "special-purpose"),
        ("fc00::/7", "unique-local"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "site-local"),
        ("ff00::/8", "multicast"),
    ]

    /// The classes `--allow-private-network` (and an allow-list prefix) opens.
    private static let internalClasses: Set<String> = [
        "loopback", "private", "carrier-grade NAT", "link-local", "unique-local", "site-local", "special-purpose",
    ]

    private static let ranges: [(bytes: [UInt8], bits: Int, name: String)] = (ipv4Table + ipv6Table).map { entry in
        let (cidr, name) = entry
        let slash = cidr.firstIndex(of: "/")!
        let text = String(cidr[..<slash])
        let bytes = text.contains(":") ? parseIPv6(text) : text.split(separator: ".").map { UInt8($0)! }
        return (bytes, Int(cidr[cidr.index(after: slash)...])!, name)
    }

    /// "allowed", or "refused as CLASS" with " via IPV4" when the class came from an embedded
    /// IPv4 address: the same words the target prints for the guard's verdict.
    static func verdict(_ address: [UInt8], allowsInternal: Bool, range: ([UInt8], Int)?) -> String {
        let embedded = address.count == 16 ? embeddedIPv4(address) : nil
        let name = classify(embedded ?? address)
        if name == "public" { return "allowed" }
        if let (base, bits) = range {
            if inPrefix(address, base, bits) || embedded.map({ inPrefix($0, base, bits) }) == true { return "allowed" }
        }
        if allowsInternal && internalClasses.contains(name) { return "allowed" }
        return "refused as \(name)" + (embedded.map { " via " + $0.map(String.init).joined(separator: ".") } ?? "")
    }

    /// The most specific documented range holding `address`.
    private static func classify(_ address: [UInt8]) -> String {
        var best: (bits: Int, name: String) = (-1, "public")
        for range in ranges where range.bytes.count == address.count && range.bits > best.bits {
            if inPrefix(address, range.bytes, range.bits) { best = (range.bits, range.name) }
        }
        return best.name
    }

    /// The IPv4 address an IPv6 address forwards to, by the documented embeddings.
    private static func embeddedIPv4(_ b: [UInt8]) -> [UInt8]? {
        let last4 = Array(b[12..<16])
        let zeroUpTo = { (end: Int) in b[0..<end].allSatisfy { $0 == 0 } }
        if zeroUpTo(10) && b[10] == 0xFF && b[11] == 0xFF { return last4 }  // ::ffff:0:0/96 mapped
        if zeroUpTo(8) && b[8] == 0xFF && b[9] == 0xFF && b[10] == 0 && b[11] == 0 { return last4 }  // translated
        if zeroUpTo(12) {  // ::/96 compatible, but not :: and ::1
            return b[12..<15].allSatisfy({ $0 == 0 }) && b[15] <= 1 ? nil : last4
        }
        if b[0..<4] == [0x00, 0x64, 0xFF, 0x9B], b[4..<12].allSatisfy({ $0 == 0 }) { return last4 }  // NAT64
        if b[0] == 0x20 && b[1] == 0x02 { return Array(b[2..<6]) }  // 6to4
        if b[0..<4] == [0x20, 0x01, 0x00, 0x00] { return last4.map { ~$0 } }  // Teredo
        return nil
    }

    private static func inPrefix(_ address: [UInt8], _ base: [UInt8], _ bits: Int) -> Bool {
        guard address.count == base.count else { return false }
        for bit in 0..<bits {
            let mask = UInt8(0x80) >> UInt8(bit % 8)
            if address[bit / 8] & mask != base[bit / 8] & mask { return false }
        }
        return true
    }

    /// The documented tables' IPv6 text: groups of hex digits, one `::` at most.
    private static func parseIPv6(_ text: String) -> [UInt8] {
        let halves = text.components(separatedBy: "::")
        let groups = { (part: String) in part.split(separator: ":").map { UInt16($0, radix: 16)! } }
        let head = groups(halves[0])
        let tail = halves.count > 1 ? groups(halves[1]) : []
        let all = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
