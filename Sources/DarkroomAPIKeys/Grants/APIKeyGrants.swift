import DarkroomQueue

/// What a key may name in what it submits: each list grants only what it holds.
///
/// - `sources`: a whole scheme (`https:`, `data:`, a plugin's `acme:`), a URL prefix
///   (`https://images.example.com/uploads/`, compared by scheme, host, port and whole path
///   segments) or a directory (`/srv/uploads`). A file source needs `file:` or a directory:
///   no other grant covers a path.
/// - `outputs`: directories the job's `output` may be in. A job without an output (its result
///   stays in the cache) needs none.
/// - `webhooks`: the names of webhook endpoints the key's jobs and batches may notify.
/// - `maxPriority`: the highest priority its jobs may have.
///
/// Grants bound every key, `admin` ones too; the workers' own source policy, file roots and
/// output roots still apply to whatever a key is granted.
public struct APIKeyGrants: Sendable, Hashable, Codable {
    public var sources: [String]
    public var outputs: [String]
    public var webhooks: [String]
    public var maxPriority: JobPriority

    /// The sources of `darkroom api-key create` without `--allow-source`: the network and inline
    /// schemes, which the workers' fetch policy guards; never a file or a plugin's scheme.
    public static let defaultSources = ["data:", "http:", "https:"]

    public init(
        sources: [String] = defaultSources, outputs: [String] = [], webhooks: [String] = [], maxPriority: JobPriority = .normal
    ) {
        self.sources = sources
        self.outputs = outputs
        self.webhooks = webhooks
        self.maxPriority = maxPriority
    }

    /// The grants checked and put in canonical order (sorted, without duplicates); throws
    /// `apikey.invalid` naming the first entry that cannot be used.
    public func validated() throws(APIKeyError) -> APIKeyGrants {
        for source in sources { _ = try GrantPrefix(source) }
        for output in outputs { _ = try GrantPrefix(output, directoriesOnly: true) }
        for webhook in webhooks where !Self.isWebhookName(webhook) {
            throw APIKeyError(.invalid, "'\(webhook.prefix(100))' is not a webhook endpoint name (1–100 letters, digits, '.', '_', '-')")
        }
        func canonical(_ list: [String]) -> [String] { Array(Set(list)).sorted() }
        return APIKeyGrants(
            sources: canonical(sources.map(Self.lowercasedScheme)), outputs: canonical(outputs), webhooks: canonical(webhooks),
            maxPriority: maxPriority)
    }

    /// The parsed source grants; entries that do not parse (never stored) are left out.
    var sourcePrefixes: [GrantPrefix] { sources.compactMap { try? GrantPrefix($0) } }
    var outputPrefixes: [GrantPrefix] { outputs.compactMap { try? GrantPrefix($0, directoriesOnly: true) } }

    static func isWebhookName(_ name: String) -> Bool {
        (1...100).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "._-".utf8.contains(byte)
            }
    }

    /// `HTTPS:` → `https:`, so the listing shows one spelling; prefixes keep theirs.
    private static func lowercasedScheme(_ text: String) -> String {
        guard let scheme = GrantTarget.scheme(of: text), text.utf8.count == scheme.utf8.count + 1 else { return text }
        return scheme + ":"
    }
}
