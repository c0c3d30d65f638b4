import DarkroomQueue

/// A registered receiver of webhook notifications: where Darkroom POSTs, and whether that may be
/// a private address. Its secrets are not part of the record (`WebhookEndpointStore.secrets`), so
/// no listing, log or `--json` output can carry them.
public struct WebhookEndpoint: Sendable, Hashable, Codable {
    /// The name jobs and batches use to choose it (`enqueue --webhook NAME`).
    public var name: String
    /// The http(s) URL deliveries are POSTed to.
    public var url: String
    /// Allow a private, loopback or link-local address (checked on the resolved address at connect
    /// time); false by default, as for sources.
    public var allowPrivateNetwork: Bool
    /// How many secrets are live: 1, or 2 between `rotate` and `retire-old`.
    public var liveSecrets: Int
    public var createdAt: Timestamp

    public init(name: String, url: String, allowPrivateNetwork: Bool = false, liveSecrets: Int = 1, createdAt: Timestamp = .now()) {
        self.name = name
        self.url = url
        self.allowPrivateNetwork = allowPrivateNetwork
        self.liveSecrets = liveSecrets
        self.createdAt = createdAt
    }

    /// The first rule the name or URL breaks, or nil. Names are 1–64 bytes of letters, digits,
    /// `-`, `_` and `.`; URLs start with `http://` or `https://`, name a host, hold no spaces or
    /// control characters and are at most 2,048 bytes (the full check, with the address rules,
    /// happens on each delivery).
    public var problem: String? {
        let bytes = name.utf8
        if !(1...64).contains(bytes.count)
            || !bytes.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            })
        {
            return "a webhook endpoint name is 1–64 letters, digits, '-', '_' or '.' (got '\(name.prefix(80))')"
        }
        let lowered = url.lowercased()
        if !(lowered.hasPrefix("http://") || lowered.hasPrefix("https://")) || url.utf8.count > 2048
            || url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) || Self.host(of: url).isEmpty
        {
            return "a webhook URL is an http:// or https:// URL of at most 2,048 bytes (got '\(url.prefix(200))')"
        }
        return nil
    }

    /// The host of an `http(s)://` URL: the authority without user information and port
    /// (empty for `https://` or `https://:443/`).
    static func host(of url: String) -> Substring {
        guard let scheme = url.range(of: "://") else { return "" }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        if hostAndPort.hasPrefix("[") { return hostAndPort.prefix { $0 != "]" }.dropFirst() }
        return hostAndPort.prefix { $0 != ":" }
    }
}

/// An endpoint just registered or rotated, with the secret that is shown this once.
public struct WebhookEndpointSecret: Sendable, Hashable {
    public var endpoint: WebhookEndpoint
    /// `whsec_` and 64 hex digits (32 random bytes); the HMAC key is the whole text.
    public var secret: String
}
