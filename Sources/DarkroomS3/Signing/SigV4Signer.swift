import Crypto
import DarkroomSystem

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`): the canonical request, the string to sign, the
/// signing key chain and the `Authorization` header, in Darkroom's own code (libcurl's
/// `CURLOPT_AWS_SIGV4` in Debian 12 does not canonicalise query strings and picks its own time).
///
/// Checked against AWS's published SigV4 test suite and S3's documented examples
/// (`SigV4SignerTests`).
public struct SigV4Signer: Sendable {
    public var credentials: S3Credentials
    public var region: String
    /// `s3` for S3; the generic test suite signs for `service`.
    public var service: String
    public var pathRule: SigV4PathRule

    public init(credentials: S3Credentials, region: String, service: String = "s3", pathRule: SigV4PathRule = .s3) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.pathRule = pathRule
    }

    /// What signing produced: the headers to add to the request, and the intermediate texts
    /// (for tests; never logged, the string to sign is what an error body must not leak either).
    public struct Signed: Sendable {
        /// `host`, `x-amz-date`, `x-amz-security-token` (with a session token) and `Authorization`.
        public var headers: [(name: String, value: String)]
        public var canonicalRequest: String
        public var stringToSign: String
        public var authorization: String
    }

    /// Signs a request for `host` (the `Host` header as sent, with its port when not the
    /// default). `path` is raw (not encoded), `query` holds raw names and values, `headers` are
    /// the other headers to sign (an S3 request includes `x-amz-content-sha256`), and
    /// `payloadHash` is the hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`).
    public func sign(
        method: String, host: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], payloadHash: String, at timestamp: SigV4Timestamp
    ) -> Signed {
        var added: [(name: String, value: String)] = [("host", host), ("x-amz-date", timestamp.amzDate)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        // Values of one name are joined with commas, in the order given; names sorted.
        var values: [String: [String]] = [:]
        for (name, value) in added + headers {
            values[name.lowercased(), default: []].append(SigV4Encoding.canonicalHeaderValue(value))
        }
        let names = values.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [
            method.uppercased(), SigV4Encoding.canonicalPath(path, rule: pathRule), SigV4Encoding.canonicalQuery(query),
            canonicalHeaders, signedHeaders, payloadHash,
        ].joined(separator: "\n")

        let scope = "\(timestamp.day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp.amzDate, scope, Self.hexSHA256(Array(canonicalRequest.utf8)),
        ].joined(separator: "\n")
        let signature = HexDigits.lowercase(Self.hmac(signingKey(day: timestamp.day), stringToSign))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
        return Signed(
            headers: added + [("Authorization", authorization)], canonicalRequest: canonicalRequest,
            stringToSign: stringToSign, authorization: authorization)
    }

    /// `HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request")`.
    func signingKey(day: String) -> [UInt8] {
        var key = Array(("AWS4" + credentials.secretAccessKey).utf8)
        for part in [day, region, service, "aws4_request"] { key = Self.hmac(key, part) }
        return key
    }

    static func hmac(_ key: [UInt8], _ text: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(text.utf8), using: SymmetricKey(data: key)))
    }

    /// The lower-case hex SHA-256 of `bytes`: a payload hash.
    public static func hexSHA256(_ bytes: [UInt8]) -> String {
        HexDigits.lowercase(SHA256.hash(data: bytes))
    }

    /// The payload hash of an empty body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
}
