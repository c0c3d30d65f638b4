import DarkroomSources
import DarkroomTestSupport
import Testing

@Suite("SSRF guard: address classes and the address policy")
struct AddressPolicyTests {
    @Test(
        "Each special-purpose address is classified by the range it falls in",
        arguments: [
            ("0.0.0.0", IPAddressClass.unspecified), ("0.255.1.2", .unspecified),
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
            ("10.0.0.1", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
            ("192.168.1.1", .privateNetwork), ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
            ("169.254.169.254", .linkLocal), ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
            ("240.0.0.1", .reserved), ("255.255.255.255", .broadcast), ("198.18.0.1", .specialPurpose),
            ("192.0.2.10", .specialPurpose),
            ("::", .unspecified), ("::1", .loopback), ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
            ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .siteLocal), ("ff02::1", .multicast),
            ("100::1", .reserved), ("4000::1", .reserved), ("2001:db8::1", .specialPurpose),
        ] as [(String, IPAddressClass)])
    func specialRanges(text: String, expected: IPAddressClass) throws {
        let address = try #require(IPAddress(text))
        #expect(address.classification.addressClass == expected)
        #expect(AddressPolicy.publicOnly.evaluate(address) != .allowed)
    }

    @Test(
        "Public addresses on both sides of each private range are allowed by default",
        arguments: [
            "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.0",
            "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255", "192.169.0.0",
            "223.255.255.255", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "2a00:1450:4001::200e",
        ])
    func publicNeighbours(text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.classification.addressClass == .publicInternet)
        #expect(AddressPolicy.publicOnly.evaluate(address) == .allowed)
    }

    @Test(
        "IPv6 forms that carry an IPv4 address are judged by that IPv4 address",
        arguments: [
            ("::ffff:127.0.0.1", "127.0.0.1", IPAddressClass.loopback, "IPv4-mapped"),
            ("::ffff:7f00:1", "127.0.0.1", .loopback, "IPv4-mapped"),
            ("::ffff:10.1.2.3", "10.1.2.3", .privateNetwork, "IPv4-mapped"),
            ("::ffff:0:169.254.169.254", "169.254.169.254", .linkLocal, "IPv4-translated"),
            ("::127.0.0.1", "127.0.0.1", .loopback, "IPv4-compatible"),
            ("64:ff9b::7f00:1", "127.0.0.1", .loopback, "NAT64"),
            ("64:ff9b::192.168.0.1", "192.168.0.1", .privateNetwork, "NAT64"),
            ("2002:7f00:1::1", "127.0.0.1", .loopback, "6to4"),
            ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "10.0.0.1", .privateNetwork, "Teredo"),
            ("::ffff:8.8.8.8", "8.8.8.8", .publicInternet, "IPv4-mapped"),
        ] as [(String, String, IPAddressClass, String)])
    func embeddedIPv4(text: String, embedded: String, expected: IPAddressClass, form: String) throws {
        let address = try #require(IPAddress(text))
        let classification = address.classification
        #expect(classification.addressClass == expected)
        #expect(classification.embeddedIPv4 == IPAddress(embedded))
        #expect(classification.embedding == form)
        #expect(AddressPolicy.publicOnly.evaluate(address).isAllowed == (expected == .publicInternet))
    }

    @Test("Allowing internal networks admits loopback and private addresses but never unspecified, multicast or broadcast")
    func internalPermission() throws {
        let policy = AddressPolicy(allowsInternalNetworks: true)
        for text in ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.1.1"] {
            #expect(policy.evaluate(try #require(IPAddress(text))) == .allowed, "\(text)")
        }
        for text in ["0.0.0.0", "224.0.0.1", "255.255.255.255", "240.0.0.1", "::", "ff02::1"] {
            #expect(policy.evaluate(try #require(IPAddress(text))) != .allowed, "\(text)")
        }
    }

    @Test("An allowed range admits exactly its addresses, including their IPv4-mapped forms")
    func allowedRanges() throws {
        let range = try #require(IPNetwork(cidr: "10.1.0.0/16"))
        let policy = AddressPolicy(allowedRanges: [range, try #require(IPNetwork(cidr: "fd00:1::/32"))])
        #expect(policy.evaluate(try #require(IPAddress("10.1.200.3"))) == .allowed)
        #expect(policy.evaluate(try #require(IPAddress("::ffff:10.1.0.9"))) == .allowed)
        #expect(policy.evaluate(try #require(IPAddress("fd00:1:ffff::1"))) == .allowed)
        #expect(policy.evaluate(try #require(IPAddress("10.2.0.1"))) != .allowed)
        #expect(policy.evaluate(try #require(IPAddress("127.0.0.1"))) != .allowed)
        #expect(policy.evaluate(try #require(IPAddress("fd00:2::1"))) != .allowed)
    }

    @Test(
        "CIDR text is parsed strictly",
        arguments: [
            ("10.0.0.0/8", true), ("192.168.1.5", true), ("::1", true), ("fd00::/8", true), ("0.0.0.0/0", true),
            ("10.0.0.0/33", false), ("fd00::/129", false), ("10.0.0.0/", false), ("10.0.0/8", false),
            ("127.1", false), ("10.0.0.0/8/8", false), ("fe80::1%eth0", false), ("nonsense", false), ("10.0.0.0/-1", false),
        ])
    func cidrParsing(text: String, valid: Bool) {
        #expect((IPNetwork(cidr: text) != nil) == valid)
    }

    @Test("Refusals explain the address, its class and any embedded IPv4 address")
    func explanation() throws {
        let mapped = try #require(IPAddress("::ffff:127.0.0.1"))
        #expect(mapped.classification.explain(mapped) == "::ffff:127.0.0.1 is an IPv4-mapped form of 127.0.0.1, a loopback address")
        let metadata = try #require(IPAddress("169.254.169.254"))
        #expect(metadata.classification.explain(metadata) == "169.254.169.254 is a link-local address")
    }
}
