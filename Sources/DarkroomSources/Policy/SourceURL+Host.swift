import DarkroomSystem

extension SourceURL {
    /// Splits `host[:port]` or `[v6][:port]` and normalises the host.
    static func parseHostAndPort(_ authority: ArraySlice<UInt8>, scheme: String) throws(Problem)
        -> (String, HostKind, Int)
    {
        let defaultPort = scheme == "https" ? 443 : 80
        var hostBytes: ArraySlice<UInt8>
        var portBytes: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                throw .invalid("has an IPv6 address without its closing ]")
            }
            hostBytes = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if let first = after.first {
                guard first == UInt8(ascii: ":") else { throw .invalid("has text after the IPv6 address's ]") }
                portBytes = after.dropFirst()
            }
            let text = String(decoding: hostBytes, as: UTF8.self)
            guard !text.contains("%") else {
                throw .invalid("names an IPv6 zone (%…); zoned link-local addresses are not fetched")
            }
            guard let address = IPAddress(text), !address.isIPv4 else {
                throw .invalid("has an IPv6 address that cannot be read: [\(text)]")
            }
            return (address.description, .ipv6, try parsePort(portBytes, default: defaultPort))
        }

        hostBytes = authority
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<colon]
            portBytes = authority[(colon + 1)...]
        }
        let port = try parsePort(portBytes, default: defaultPort)
        if hostBytes.last == UInt8(ascii: "."), hostBytes.count > 1 { hostBytes = hostBytes.dropLast() }
        guard !hostBytes.isEmpty else { throw .invalid("has no host") }
        guard hostBytes.count <= 253 else { throw .invalid("has a host name longer than 253 characters") }
        for byte in hostBytes where !isHostNameByte(byte) {
            if byte == UInt8(ascii: "%") {
                throw .invalid("has a percent-encoded host name; write the host in plain letters")
            }
            if byte >= 0x80 {
                throw .invalid("has a non-ASCII host name; write international names in punycode (xn--…)")
            }
            throw .invalid("has a host name with the character '\(Unicode.Scalar(byte))', which host names cannot contain")
        }
        let name = String(decoding: hostBytes, as: UTF8.self).lowercased()
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.contains(where: \.isEmpty) { throw .invalid("has an empty label in its host name (..)") }
        if let last = labels.last, endsInNumber(last) {
            // WHATWG: a host whose last label is a number is an IPv4 address, in any of the spellings
            // browsers and libcurl accept (decimal, octal, hex, fewer than four parts) — or nothing.
            guard let value = parseIPv4(labels) else {
                throw .invalid("has a host that ends in a number but is not an IPv4 address: \(name)")
            }
            return (IPAddress.v4(value).description, .ipv4, port)
        }
        return (name, .name, port)
    }

    private static func isHostNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    private static func parsePort(_ bytes: ArraySlice<UInt8>?, default defaultPort: Int) throws(Problem) -> Int {
        guard let bytes, !bytes.isEmpty else { return defaultPort }
        let significant = bytes.drop(while: { $0 == UInt8(ascii: "0") })
        guard bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), significant.count <= 5 else {
            throw .invalid("has a port that is not a number from 1 to 65535")
        }
        let value = significant.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard (1...65535).contains(value) else { throw .invalid("has a port that is not a number from 1 to 65535") }
        return value
    }

    /// WHATWG's "ends in a number" test for the last label.
    private static func endsInNumber(_ label: Substring) -> Bool {
        if !label.isEmpty, label.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        let bytes = Array(label.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") else { return false }
        return bytes.dropFirst(2).allSatisfy(isHexDigit)
    }

    /// WHATWG's IPv4 parser: one to four parts, each decimal, octal (leading 0) or hex (0x); all
    /// but the last at most 255, the last filling the remaining bytes.
    private static func parseIPv4(_ labels: [Substring]) -> UInt32? {
        guard (1...4).contains(labels.count) else { return nil }
        var numbers: [UInt64] = []
        for label in labels {
            guard let number = parseIPv4Number(Array(label.utf8)) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.popLast(), numbers.allSatisfy({ $0 <= 255 }) else { return nil }
        guard last < UInt64(1) << UInt64(8 * (4 - numbers.count)) else { return nil }
        var value = last
        for (i, number) in numbers.enumerated() { value += number << UInt64(8 * (3 - i)) }
        return UInt32(exactly: value)
    }

    private static func parseIPv4Number(_ bytes: [UInt8]) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        var digits = bytes[...]
        var radix: UInt64 = 10
        if digits.count >= 2, digits[0] == UInt8(ascii: "0"), digits[1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.count >= 2, digits[0] == UInt8(ascii: "0") {
            radix = 8
            digits = digits.dropFirst()
        }
        var value: UInt64 = 0
        for byte in digits {
            // Octal and decimal digits are hex digits below their radix.
            guard let hexDigit = HexDigits.value(byte) else { return nil }
            let digit = UInt64(hexDigit)
            guard digit < radix else { return nil }
            value = value * radix + digit
            guard value <= UInt64(UInt32.max) else { return nil }  // also stops overflow on long input
        }
        return value
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        HexDigits.value(byte) != nil
    }
}
