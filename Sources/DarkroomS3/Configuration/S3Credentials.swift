/// An access key pair (and a session token for temporary credentials) that signs requests.
///
/// Its `description` never shows the secret or the token, so a credentials value can be logged or
/// end up in an error message without leaking them.
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// `X-Amz-Security-Token`, for temporary credentials (STS); nil for long-lived keys.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "S3Credentials(\(accessKeyID), secret: <redacted>)" }

    /// The credentials of endpoint `alias` from the environment: `DARKROOM_S3_<ALIAS>_ACCESS_KEY_ID`,
    /// `…_SECRET_ACCESS_KEY` and `…_SESSION_TOKEN` (the alias upper-cased, `-` as `_`); for the
    /// alias `default`, AWS's own `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
    /// `AWS_SESSION_TOKEN` when the Darkroom names are not set. Nil when no key pair is set.
    ///
    /// Secrets come from the environment (or a secrets file the deployment mounts into it), never
    /// from a command line, where `ps` would show them.
    public static func fromEnvironment(alias: String, environment: [String: String]) -> S3Credentials? {
        let prefix = "DARKROOM_S3_" + String(alias.uppercased().map { $0 == "-" ? "_" : $0 }) + "_"
        if let id = environment[prefix + "ACCESS_KEY_ID"], let secret = environment[prefix + "SECRET_ACCESS_KEY"] {
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: environment[prefix + "SESSION_TOKEN"])
        }
        if alias == S3Endpoint.defaultAlias, let id = environment["AWS_ACCESS_KEY_ID"],
            let secret = environment["AWS_SECRET_ACCESS_KEY"]
        {
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
        return nil
    }
}
