/// Turns what a request ended with into an `S3Error`: the kind from the status and the `<Code>`
/// (the kinds' documentation is the rule), and a message of Darkroom's own that says what was
/// asked, what the service answered and what to do. Nothing of an error body but its `<Code>` is
/// ever read into a message: some services put the access key id and the string to sign there.
enum S3Failures {
    /// Codes that mean the credentials are wrong or stale (AWS answers 403, or 400 for
    /// `ExpiredToken`).
    static let credentialCodes: Set<String> = [
        "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired",
    ]

    /// The kind of a non-2xx answer with `code` (the `<Code>`, if any).
    static func kind(status: Int, code: String?) -> S3Error.Kind {
        if let code, credentialCodes.contains(code), status == 400 || status == 403 { return .credentials }
        if code == "RequestTimeTooSkewed" { return .clockSkew }
        switch status {
        case 300..<400: return .redirect
        case 403: return .forbidden
        case 404: return .notFound
        case 429: return .throttled
        case 503 where code == "SlowDown" || code == "ServiceUnavailable": return .throttled
        case 500..<600: return code == "SlowDown" ? .throttled : .server
        default: return .client
        }
    }

    /// The error for a non-2xx response.
    static func status(_ response: S3HTTPResponse, subject: String, endpoint: S3Endpoint) -> S3Error {
        let code = S3XMLResponses.errorCode(response.body)
        let kind = kind(status: response.status, code: code)
        return answered(kind, status: response.status, code: code, subject: subject, endpoint: endpoint, response: response)
    }

    /// The error for an `<Error>` in the body of a 200 (CompleteMultipartUpload does that).
    static func errorIn200(code: String?, subject: String, endpoint: S3Endpoint) -> S3Error {
        let kind: S3Error.Kind
        switch code {
        case "NoSuchUpload": kind = .notFound
        case "InvalidPart", "InvalidPartOrder", "EntityTooSmall", "MalformedXML", "InvalidRequest": kind = .client
        default: kind = self.kind(status: 500, code: code)
        }
        return answered(kind, status: 200, code: code, subject: subject, endpoint: endpoint, response: nil)
    }

    private static func answered(
        _ kind: S3Error.Kind, status: Int, code: String?, subject: String, endpoint: S3Endpoint, response: S3HTTPResponse?
    ) -> S3Error {
        let answer = "endpoint '\(endpoint.alias)' answered \(status)\(code.map { " \($0)" } ?? "")"
        let advice: String
        switch kind {
        case .notFound: advice = "no such object, bucket or upload"
        case .forbidden: advice = "the credentials may not do this: check the bucket's policy and the key's permissions"
        case .credentials:
            advice =
                "the credentials were refused (a wrong, rotated or expired key, or a wrong region '\(endpoint.region)'): "
                + "check endpoint '\(endpoint.alias)''s credentials and region; retried later"
        case .clockSkew: advice = "this host's clock is too far from the server's: synchronise it (NTP); retried later"
        case .throttled: advice = "the service asks for fewer requests; retried later"
        case .server: advice = "the service failed; retried later"
        case .redirect:
            let region = response?.header("x-amz-bucket-region").flatMap { value in
                value.utf8.allSatisfy { SigV4Encoding.isUnreserved($0) } && value.utf8.count <= 32 ? value : nil
            }
            advice =
                "redirects are never followed (the signature names the host): the endpoint's region or addressing style is "
                + "probably wrong\(region.map { " (the bucket is in region '\($0)')" } ?? "")"
        default: advice = "the request was refused"
        }
        return S3Error(kind, "\(subject): \(answer): \(advice)", status: status, serviceCode: code)
    }

    /// The error for a transfer libcurl did not complete.
    static func transport(
        _ failure: S3TransportFailure, subject: String, endpoint: S3Endpoint, limits: S3TransferLimits, maxBytes: Int
    ) -> S3Error {
        switch failure {
        case .timeout(let connected, let total):
            if !connected {
                return S3Error(.timeout, "\(subject): no connection to endpoint '\(endpoint.alias)' within \(seconds(limits.connectTimeout))")
            }
            if total { return S3Error(.timeout, "\(subject): took longer than \(seconds(limits.totalTimeout)), the limit") }
            return S3Error(
                .timeout,
                "\(subject): endpoint '\(endpoint.alias)' sent less than \(limits.lowSpeedBytesPerSecond) bytes/s for \(seconds(limits.lowSpeedSeconds))"
            )
        case .tooLarge(let announced):
            let size = announced > Int64(maxBytes) ? "is \(announced) bytes, " : "is "
            return S3Error(.tooLarge, "\(subject): the object \(size)over the \(maxBytes)-byte limit")
        case .cancelled:
            return S3Error(.connection, "\(subject): cancelled")
        case .connection(let detail):
            return S3Error(.connection, "\(subject): could not reach endpoint '\(endpoint.alias)' (\(endpoint.url)): \(detail)")
        case .setup(let detail):
            return S3Error(.connection, "\(subject): could not start the transfer (libcurl: \(detail.isEmpty ? "setup failed" : detail))")
        case .credentials(let error):
            return S3Error(.credentials, "\(subject): no credentials for endpoint '\(endpoint.alias)': \(error.message)")
        }
    }

    /// A response that is not what the operation returns (no ETag, unreadable XML).
    static func badResponse(_ subject: String, _ problem: String) -> S3Error {
        S3Error(.badResponse, "\(subject): \(problem); retried later")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
