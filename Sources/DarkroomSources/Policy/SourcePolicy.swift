/// What a fetch may do: limits, timeouts and which sources are allowed at all.
///
/// The defaults are strict, as imgproxy's are: http/https only, no private, loopback or
/// link-local addresses (checked on the resolved address at connect time, on every redirect
/// hop), 50 MB bodies, 5 redirects, files only under configured roots.
public struct SourcePolicy: Sendable, Hashable {
    /// Largest body accepted, for every provider (HTTP, file, `data:`).
    public var maxBytes: Int = 50 << 20
    /// Seconds to establish a connection.
    public var connectTimeout: Double = 5
    /// Seconds for the whole transfer, redirects included.
    public var totalTimeout: Double = 30
    /// A transfer slower than `lowSpeedBytesPerSecond` for `lowSpeedSeconds` is cut off.
    public var lowSpeedBytesPerSecond: Int = 1024
    public var lowSpeedSeconds: Double = 10
    /// Most redirects followed.
    public var maxRedirects: Int = 5
    /// Sent as `User-Agent`.
    public var userAgent: String = "Darkroom/0.1 (+image pipeline)"
    /// URL prefixes sources must start with (`--allow-source http://images.example.com/`); empty
    /// means any public http(s) URL. A host named by an allowed prefix may resolve to a private
    /// address (for in-cluster sources and tests); redirects are checked again.
    public var allowedSourcePrefixes: [String] = []
    /// Allow private, loopback and link-local addresses for every host (`--allow-private-network`).
    public var allowPrivateNetworks: Bool = false
    /// CIDR ranges that may be connected to whatever their kind (`--allow-address-range
    /// 10.1.0.0/16`): narrower than `allowPrivateNetworks`, for an in-cluster image service that
    /// lives on one private subnet. A single address (`10.1.2.3`) is a /32 or /128.
    public var allowedAddressRanges: [String] = []
    /// Directories file sources must resolve into. `nil`: any file the process can read (paths a
    /// person types into `darkroom process`); `[]`: no files at all (the default for queued jobs).
    public var fileRoots: [String]? = []
    /// A PEM bundle of extra certificate authorities to trust (`--ca-file`), for in-cluster https
    /// sources signed by a private CA; nil (the default) trusts the system's store only. Peer and
    /// host-name verification stay on either way. libcurl uses the bundle in place of its default
    /// bundle *file*; the system's certificate directory (`/etc/ssl/certs` on Debian builds of
    /// libcurl) is still consulted, so public https sources keep working.
    public var caCertificatesPath: String? = nil
    /// Schemes handled by plugin providers that may be fetched (`--allow-plugin-scheme NAME`).
    /// A plugin's scheme is refused until the operator names it here; `allowedSourcePrefixes`
    /// still applies to its URLs.
    public var allowedPluginSchemes: Set<String> = []

    public init() {}

    /// The policy for sources a person typed on their own command line: their own files are fine.
    public static var interactive: SourcePolicy {
        var policy = SourcePolicy()
        policy.fileRoots = nil
        return policy
    }
}
