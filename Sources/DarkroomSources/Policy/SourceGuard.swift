/// A `SourcePolicy`'s URL and address rules, parsed once per fetch and applied to every hop.
///
/// For each URL — the first one and every redirect target — `authorize` checks the scheme
/// (http/https only), user information (refused), the allow-list, and returns the `AddressPolicy`
/// the connection for *that* hop must pass once its host is resolved. A host named by an
/// allow-list prefix may resolve to a private address; the permission belongs to that hop alone,
/// so a redirect elsewhere is judged afresh.
public struct SourceGuard: Sendable, Hashable {
    public let allowList: SourceAllowList
    public let allowedRanges: [IPNetwork]
    public let allowPrivateNetworks: Bool

    /// Parses the policy's prefixes and ranges; a malformed entry is an `invalid` problem that
    /// names it.
    public init(_ policy: SourcePolicy) throws(SourceURL.Problem) {
        allowList = try SourceAllowList(policy.allowedSourcePrefixes, pluginSchemes: policy.allowedPluginSchemes)
        var ranges: [IPNetwork] = []
        for text in policy.allowedAddressRanges {
            guard let range = IPNetwork(cidr: text) else {
                throw .invalid(
                    "cannot be checked: the allowed address range '\(text)' is not a CIDR range "
                        + "(write 10.1.0.0/16, fd00::/8 or a single address)")
            }
            ranges.append(range)
        }
        allowedRanges = ranges
        allowPrivateNetworks = policy.allowPrivateNetworks
    }

    /// Parses `text` and authorises it (see `authorize(_:)`).
    public func authorize(_ text: String) throws(SourceURL.Problem) -> (SourceURL, AddressPolicy) {
        let url = try SourceURL(parsing: text)
        return (url, try authorize(url))
    }

    /// The address rule for a request to `url`, or a `refused` problem when the URL itself is not
    /// allowed.
    public func authorize(_ url: SourceURL) throws(SourceURL.Problem) -> AddressPolicy {
        let named = try allowList.check(url)
        return AddressPolicy(allowsInternalNetworks: allowPrivateNetworks || named, allowedRanges: allowedRanges)
    }
}
