import DarkroomSources

/// The SSRF guard's address rules as a property. The input chooses an address (often one near a
/// range boundary), a way to spell it in a URL, and a policy; the target writes the URL, lets
/// `SourceURL` normalise the host and `AddressPolicy` judge the address it names, and compares
/// the verdict with `ReferenceAddressRules`, a separate implementation of the rules
/// docs/sources-and-policy.md states. Any disagreement, or a spelling that does not read back as
/// the address it spells, stops the fuzzer.
enum AddressPolicyFuzz {
    static let target = FuzzTarget(
        name: "address",
        summary: "IPv4/IPv6 addresses in every URL spelling against a reference of the documented address rules"
    ) { bytes in
        var input = FuzzInput(bytes)
        let address = AddressSpelling.pickAddress(&input)
        let spelling = AddressSpelling.spell(address, &input)
        let allowsInternal = input.byte() & 1 == 1
        let range = input.byte() & 1 == 1 ? AddressSpelling.pickRange(&input, near: address) : nil
        check(address: address, spelled: spelling, allowsInternal: allowsInternal, range: range)
    }

    private static func check(address: [UInt8], spelled host: String, allowsInternal: Bool, range: ([UInt8], Int)?) {
        let text = "http://\(host)/image.jpg"
        let url: SourceURL
        do {
            url = try SourceURL(parsing: text)
        } catch {
            FuzzFailure.stop("address", "\(text.debugDescription) does not parse: \(error.message)")
        }
        guard let parsed = IPAddress(url.host), parsed == IPAddress(bytes: address) else {
            FuzzFailure.stop(
                "address", "\(text.debugDescription) normalises to host \(url.host.debugDescription), not \(address)")
        }
        var ranges: [IPNetwork] = []
        if let (base, bits) = range, let network = IPAddress(bytes: base).flatMap({ IPNetwork($0, prefixLength: bits) }) {
            ranges.append(network)
        }
        let verdict = AddressPolicy(allowsInternalNetworks: allowsInternal, allowedRanges: ranges).evaluate(parsed)
        let expected = ReferenceAddressRules.verdict(
            address, allowsInternal: allowsInternal, range: range)
        let got: String
        switch verdict {
        case .allowed: got = "allowed"
        case .refused(let classification):
            got =
                "refused as \(classification.addressClass.rawValue)"
                + (classification.embeddedIPv4.map { " via \($0)" } ?? "")
        }
        if got != expected {
            let rangeText = range.map { " with allowed range \($0.0)/\($0.1)" } ?? ""
            FuzzFailure.stop(
                "address",
                "\(text.debugDescription) (allow internal: \(allowsInternal)\(rangeText)): the guard says \(got), the documented rules say \(expected)"
            )
        }
    }
}
