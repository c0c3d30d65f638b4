/// The SSRF guard's rule for one connection: which resolved addresses may be connected to.
///
/// It is applied to the address libcurl is about to connect to, after DNS, for every redirect hop,
/// so no spelling of a host name or address (`2130706433`, `0x7f.1`, `localhost`, a DNS name that
/// resolves to 10.0.0.5, `[::ffff:127.0.0.1]`) gets past it.
public struct AddressPolicy: Sendable, Hashable {
    /// Allow internal networks (`IPAddressClass.isInternal`): loopback, RFC 1918, CGNAT,
    /// link-local, unique-local. True for a hop whose URL an allow-list prefix names, or when the
    /// policy allows private networks everywhere.
    public var allowsInternalNetworks: Bool
    /// Ranges allowed whatever their class (`SourcePolicy.allowedAddressRanges`).
    public var allowedRanges: [IPNetwork]

    public init(allowsInternalNetworks: Bool = false, allowedRanges: [IPNetwork] = []) {
        self.allowsInternalNetworks = allowsInternalNetworks
        self.allowedRanges = allowedRanges
    }

    /// The strict default: public addresses only.
    public static let publicOnly = AddressPolicy()

    /// Whether a connection to `address` may be opened.
    public func evaluate(_ address: IPAddress) -> AddressVerdict {
        let classification = address.classification
        if classification.addressClass == .publicInternet { return .allowed }
        if allowedRanges.contains(where: {
            $0.contains(address) || classification.embeddedIPv4.map($0.contains) == true
        }) {
            return .allowed
        }
        if allowsInternalNetworks && classification.addressClass.isInternal { return .allowed }
        return .refused(classification)
    }
}

/// The guard's answer for one address.
public enum AddressVerdict: Sendable, Hashable {
    case allowed
    case refused(IPAddressClassification)

    public var isAllowed: Bool { self == .allowed }
}
