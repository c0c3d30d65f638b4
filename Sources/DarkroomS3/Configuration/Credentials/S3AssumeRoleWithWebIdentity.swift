/// One STS `AssumeRoleWithWebIdentity` call: an unsigned form `POST` carrying the web-identity
/// token (an EKS service account's, from `AWS_WEB_IDENTITY_TOKEN_FILE`), answered with temporary
/// credentials and their expiry.
///
/// The token is a bearer secret: it is sent in the body only, and no message says anything of it
/// or of the answer but the status and the `<Code>`.
struct S3AssumeRoleWithWebIdentity: Sendable {
    /// STS's base URL (`https://sts.eu-west-1.amazonaws.com`).
    var stsURL: String
    var roleARN: String
    var sessionName: String

    /// Temporary credentials and when they expire (seconds since 1970).
    struct Answer: Sendable {
        var credentials: S3Credentials
        var expiration: Int
    }

    /// The request for `token`.
    func request(token: String) -> S3HTTPRequest {
        let form = [
            ("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", roleARN),
            ("RoleSessionName", sessionName), ("WebIdentityToken", token),
        ]
        .map { SigV4Encoding.encode($0.0) + "=" + SigV4Encoding.encode($0.1) }
        .joined(separator: "&")
        let url = stsURL.hasSuffix("/") ? stsURL : stsURL + "/"
        return S3HTTPRequest(
            method: "POST", url: url,
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), ("Accept", "application/xml")],
            body: Array(form.utf8), maxBytes: 1 << 20)
    }

    /// Sends the request for `token` on the calling (pool) thread and reads the answer; any
    /// failure is `S3Error(.credentials)`, transient.
    func perform(token: String, limits: S3TransferLimits, caFile: String?) throws(S3Error) -> Answer {
        guard let transfer = S3CurlTransfer(maxBytes: 1 << 20, cancellation: S3Cancellation()) else {
            throw failure("could not start a libcurl transfer")
        }
        switch transfer.perform(request(token: token), limits: limits, caFile: caFile) {
        case .failure(let failure):
            throw self.failure("STS at \(stsURL) could not be reached (\(Self.describe(failure)))")
        case .success(let response) where response.status == 200:
            return try answer(response.body)
        case .success(let response):
            let code = (try? S3XMLElement.parse(response.body))?.child("Error")?.value("Code").flatMap { code in
                (1...64).contains(code.utf8.count) && code.utf8.allSatisfy { SigV4Encoding.isUnreserved($0) } ? code : nil
            }
            throw failure(
                "STS at \(stsURL) answered \(response.status)\(code.map { " \($0)" } ?? ""): check the role's trust policy for this "
                    + "service account and that the token file is current")
        }
    }

    /// The credentials in a 200 answer's body.
    func answer(_ body: [UInt8]) throws(S3Error) -> Answer {
        guard let root = try? S3XMLElement.parse(body),
            let credentials = root.child("AssumeRoleWithWebIdentityResult")?.child("Credentials"),
            let id = credentials.value("AccessKeyId"), !id.isEmpty, let secret = credentials.value("SecretAccessKey"),
            !secret.isEmpty, let token = credentials.value("SessionToken"), !token.isEmpty,
            let expiration = credentials.value("Expiration").flatMap({ S3XMLResponses.epochSeconds(iso8601: $0) })
        else {
            throw failure("STS at \(stsURL) answered 200 without AccessKeyId, SecretAccessKey, SessionToken and Expiration")
        }
        return Answer(credentials: S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token), expiration: expiration)
    }

    private func failure(_ detail: String) -> S3Error {
        S3Error(.credentials, "web identity (role \(roleARN)): \(detail); retried later")
    }

    private static func describe(_ failure: S3TransportFailure) -> String {
        switch failure {
        case .timeout: return "timed out"
        case .tooLarge: return "the answer is too large"
        case .cancelled: return "cancelled"
        case .connection(let detail), .setup(let detail): return detail.isEmpty ? "no detail" : detail
        case .credentials(let error): return error.message
        }
    }
}
