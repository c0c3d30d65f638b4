/// Reads the text of `--s3-endpoint`: `[ALIAS=]URL[;region=R][;addressing=path|virtual][;ca-file=PATH]`
/// (docs/object-storage.md#endpoints-and-buckets). Credentials are never part of it: they come
/// from the environment (`S3Credentials.fromEnvironment`).
public enum S3EndpointSpecification {
    /// The endpoint `text` describes, without credentials; a message naming what is wrong.
    public static func parse(_ text: String) throws(S3Error) -> S3Endpoint {
        var fields = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var head = fields.removeFirst()
        var alias = S3Endpoint.defaultAlias
        if let equals = head.firstIndex(of: "="), !head[..<equals].contains(":") {
            alias = String(head[..<equals])
            head = String(head[head.index(after: equals)...])
        }
        guard S3Endpoint.isValidAlias(alias) else {
            throw problem(text, "'\(alias)' is not an alias (1 to 32 of a-z, 0-9 and '-')")
        }
        let lower = head.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw problem(text, "the URL must start with http:// or https:// (got '\(head)')")
        }
        let afterScheme = head[head.index(head.startIndex, offsetBy: lower.hasPrefix("https") ? 8 : 7)...]
        let host = afterScheme.hasSuffix("/") ? afterScheme.dropLast() : afterScheme
        guard !host.isEmpty, !host.contains("/"), !host.contains("@"), !host.contains("?"), !host.contains("#") else {
            throw problem(text, "the URL is a scheme and a host[:port], without a path, user or query (got '\(head)')")
        }
        var endpoint = S3Endpoint(alias: alias, url: String(head.prefix(lower.hasPrefix("https") ? 8 : 7) + host))
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else {
                throw problem(text, "'\(field)' is not NAME=VALUE (region=, addressing= or ca-file=)")
            }
            let value = String(field[field.index(after: equals)...])
            switch field[..<equals] {
            case "region":
                guard !value.isEmpty, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x2F }) else {
                    throw problem(text, "region= needs a region name such as us-east-1 or auto")
                }
                endpoint.region = value
            case "addressing":
                guard let addressing = S3Addressing(rawValue: value) else {
                    throw problem(text, "addressing= is path or virtual (got '\(value)')")
                }
                endpoint.addressing = addressing
            case "ca-file":
                guard !value.isEmpty else { throw problem(text, "ca-file= needs the path of a PEM bundle") }
                endpoint.caFile = value
            default:
                throw problem(text, "unknown setting '\(field[..<equals])' (region=, addressing= or ca-file=)")
            }
        }
        return endpoint
    }

    private static func problem(_ text: String, _ message: String) -> S3Error {
        S3Error(.refused, "--s3-endpoint '\(text)': \(message)")
    }
}
