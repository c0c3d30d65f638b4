import DarkroomSystem

/// Credentials from a file in AWS's shared-credentials format (`S3ProfileFile`), read again
/// whenever the file changes: `DARKROOM_S3_<ALIAS>_CREDENTIALS_FILE` (a Kubernetes secret
/// mounted as a file) and `AWS_SHARED_CREDENTIALS_FILE`/`~/.aws/credentials`.
///
/// Each request costs one `stat` of the path; the file is read and parsed only when its identity
/// (`S3SecretFile.Identity`) changed. A broken file is remembered as broken until it changes, so
/// requests fail fast with `S3Error(.credentials)` and succeed again once the secret is fixed,
/// without a restart.
public final class S3CredentialsFile: S3CredentialsResolver {
    public let path: String
    public let profile: String
    /// Whether the file is a config file (`[profile NAME]` sections) rather than a credentials
    /// file (`[NAME]`).
    public let isConfig: Bool
    /// What the file is called in messages (`credentials file`).
    let what: String
    private let cache = Locked<(identity: S3SecretFile.Identity, result: Result<S3Credentials, S3Error>)?>(nil)

    public init(path: String, profile: String, isConfig: Bool = false, what: String = "credentials file") {
        self.path = path
        self.profile = profile
        self.isConfig = isConfig
        self.what = what
    }

    public func credentials() throws(S3Error) -> S3Credentials {
        let identity = try S3SecretFile.identity(path, what: what)
        if let cached = cache.withLock({ $0 }), cached.identity == identity { return try cached.result.get() }
        // Read outside the lock (never block other requests on I/O); two threads that both saw
        // the change read the same file, and either's answer is right.
        let read = try S3SecretFile.read(path, what: what)
        let result: Result<S3Credentials, S3Error>
        do {
            result = .success(try Self.credentials(in: read.text, path: path, profile: profile, isConfig: isConfig, what: what))
        } catch {
            result = .failure(error)
        }
        cache.withLock { $0 = (read.identity, result) }
        return try result.get()
    }

    /// Nothing to do: the file is read again as soon as it changes.
    public func refused() {}

    public var description: String { "\(what) \(path), profile \(profile)" }

    /// The key pair of `profile` in the file's `text`, or an error naming what is missing.
    static func credentials(in text: String, path: String, profile: String, isConfig: Bool, what: String) throws(S3Error)
        -> S3Credentials
    {
        let file: S3ProfileFile
        do { file = try S3ProfileFile.parse(text, path: path) } catch { throw S3Error(.credentials, "\(what) \(error.message)") }
        guard let settings = file.profile(profile, config: isConfig) else {
            throw S3Error(.credentials, "\(what) '\(path)' has no profile '\(profile)'")
        }
        guard let id = settings["aws_access_key_id"], !id.isEmpty else {
            let unsupported = S3ProfileFile.unsupportedSettings(settings)
            if !unsupported.isEmpty {
                throw S3Error(
                    .credentials,
                    "profile '\(profile)' in \(what) '\(path)' gets its credentials with \(unsupported.joined(separator: ", ")), which Darkroom does not support; give it aws_access_key_id and aws_secret_access_key"
                )
            }
            throw S3Error(.credentials, "profile '\(profile)' in \(what) '\(path)' has no aws_access_key_id")
        }
        guard let secret = settings["aws_secret_access_key"], !secret.isEmpty else {
            throw S3Error(.credentials, "profile '\(profile)' in \(what) '\(path)' has no aws_secret_access_key")
        }
        let token = settings["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }
}
