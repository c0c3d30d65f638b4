import Glibc

/// How an endpoint's credentials are found at start-up (docs/object-storage.md#credentials), for
/// endpoint alias `A` (upper-cased, `-` written `_`), the first that yields:
///
/// 1. `DARKROOM_S3_<A>_ACCESS_KEY_ID` and `…_SECRET_ACCESS_KEY` (and `…_SESSION_TOKEN`);
/// 2. `DARKROOM_S3_<A>_CREDENTIALS_FILE`, profile `DARKROOM_S3_<A>_PROFILE` or `default`, read
///    again when it changes (`S3CredentialsFile`);
/// 3. for the alias `default` only, AWS's chain: `AWS_ACCESS_KEY_ID` and
///    `AWS_SECRET_ACCESS_KEY`; web identity (`AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN`,
///    `S3WebIdentityCredentials`); the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
///    default `~/.aws/credentials`) or config file with profile `AWS_PROFILE`.
///
/// None: unsigned requests. A setting that cannot work (a file that is absent, unreadable or
/// malformed, half a key pair, a profile using `credential_process`, `sso_*` or `role_arn`) is
/// an error naming it (`S3Error.Kind.refused`: a usage error), never a silent unsigned request.
public enum S3CredentialsResolution {
    /// The credentials of endpoint `alias`; `region` is the endpoint's, used for STS when the
    /// environment and config file name none.
    public static func source(alias: String, region: String, environment: [String: String]) throws(S3Error) -> S3CredentialsSource {
        let prefix = "DARKROOM_S3_" + String(alias.uppercased().map { $0 == "-" ? "_" : $0 }) + "_"
        if let pair = try keyPair(prefix + "ACCESS_KEY_ID", prefix + "SECRET_ACCESS_KEY", prefix + "SESSION_TOKEN", environment) {
            return .fixed(pair)
        }
        if let path = S3SharedConfig.nonEmpty(environment[prefix + "CREDENTIALS_FILE"]) {
            let profile = S3SharedConfig.nonEmpty(environment[prefix + "PROFILE"]) ?? "default"
            return try checked(S3CredentialsFile(path: path, profile: profile), setting: prefix + "CREDENTIALS_FILE")
        }
        guard alias == S3Endpoint.defaultAlias else { return .anonymous }
        if let pair = try keyPair("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", environment) {
            return .fixed(pair)
        }
        if let webIdentity = try webIdentity(region: region, environment: environment) { return webIdentity }
        return try sharedFiles(environment: environment)
    }

    /// Both halves of a key pair, nil for neither, an error for one alone.
    private static func keyPair(_ idName: String, _ secretName: String, _ tokenName: String, _ environment: [String: String])
        throws(S3Error) -> S3Credentials?
    {
        let id = S3SharedConfig.nonEmpty(environment[idName])
        let secret = S3SharedConfig.nonEmpty(environment[secretName])
        switch (id, secret) {
        case (let id?, let secret?):
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: S3SharedConfig.nonEmpty(environment[tokenName]))
        case (nil, nil): return nil
        case (nil, _): throw S3Error(.refused, "\(secretName) is set without \(idName); set both, or neither")
        case (_, nil): throw S3Error(.refused, "\(idName) is set without \(secretName); set both, or neither")
        }
    }

    /// Web identity when `AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN` are set (the token file
    /// must be readable now; STS is first asked by the first request).
    private static func webIdentity(region: String, environment: [String: String]) throws(S3Error) -> S3CredentialsSource? {
        let tokenFile = S3SharedConfig.nonEmpty(environment["AWS_WEB_IDENTITY_TOKEN_FILE"])
        let role = S3SharedConfig.nonEmpty(environment["AWS_ROLE_ARN"])
        guard let tokenFile, let role else {
            if tokenFile == nil && role == nil { return nil }
            let (set, unset) = tokenFile == nil ? ("AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE") : ("AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN")
            throw S3Error(.refused, "\(set) is set without \(unset): web identity needs both")
        }
        do { _ = try S3SecretFile.read(tokenFile, what: "web identity token file") } catch {
            throw S3Error(.refused, "AWS_WEB_IDENTITY_TOKEN_FILE: \(error.message)")
        }
        let stsRegion = try S3SharedConfig.region(environment: environment) ?? region
        let stsURL = S3SharedConfig.nonEmpty(environment["AWS_STS_ENDPOINT_URL"]) ?? "https://sts.\(stsRegion).amazonaws.com"
        let lower = stsURL.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw S3Error(.refused, "AWS_STS_ENDPOINT_URL '\(stsURL)' must start with http:// or https://")
        }
        let session = S3SharedConfig.nonEmpty(environment["AWS_ROLE_SESSION_NAME"]) ?? defaultSessionName()
        return S3CredentialsSource(
            resolver: S3WebIdentityCredentials(tokenFile: tokenFile, roleARN: role, sessionName: session, stsURL: stsURL))
    }

    /// The shared credentials file's profile, else the config file's; anonymous when neither
    /// has one and no profile or file was asked for by name.
    private static func sharedFiles(environment: [String: String]) throws(S3Error) -> S3CredentialsSource {
        let profile = S3SharedConfig.profileName(environment: environment)
        let named = S3SharedConfig.nonEmpty(environment["AWS_SHARED_CREDENTIALS_FILE"])
        let path = named ?? S3SharedConfig.nonEmpty(environment["HOME"]).map { $0 + "/.aws/credentials" }
        var settings: [String: String] = [:]
        if let path {
            do {
                let text = try S3SecretFile.read(path, what: "shared credentials file").text
                settings = try S3ProfileFile.parse(text, path: path).profile(profile, config: false) ?? [:]
            } catch {
                if named != nil || !S3SecretFile.isMissing(error) {
                    throw S3Error(.refused, "AWS_SHARED_CREDENTIALS_FILE: \(error.message)")
                }
            }
            if settings["aws_access_key_id"] != nil {
                let file = S3CredentialsFile(path: path, profile: profile, what: "shared credentials file")
                return try checked(file, setting: "AWS_SHARED_CREDENTIALS_FILE")
            }
        }
        let config = try S3SharedConfig.profile(environment: environment) ?? [:]
        if config["aws_access_key_id"] != nil, let configPath = S3SharedConfig.path(environment: environment) {
            let file = S3CredentialsFile(path: configPath, profile: profile, isConfig: true, what: "config file")
            return try checked(file, setting: "AWS_CONFIG_FILE")
        }
        let unsupported = Set(S3ProfileFile.unsupportedSettings(settings) + S3ProfileFile.unsupportedSettings(config)).sorted()
        if !unsupported.isEmpty {
            throw S3Error(
                .refused,
                "AWS profile '\(profile)' gets its credentials with \(unsupported.joined(separator: ", ")), which Darkroom does not support: give the profile aws_access_key_id and aws_secret_access_key, or use web identity or DARKROOM_S3_DEFAULT_CREDENTIALS_FILE"
            )
        }
        if S3SharedConfig.nonEmpty(environment["AWS_PROFILE"]) != nil {
            throw S3Error(.refused, "AWS_PROFILE '\(profile)': no such profile with aws_access_key_id in the shared credentials or config file")
        }
        return .anonymous
    }

    /// `resolver` as a source, after checking it yields credentials now.
    private static func checked(_ resolver: S3CredentialsFile, setting: String) throws(S3Error) -> S3CredentialsSource {
        do { _ = try resolver.credentials() } catch { throw S3Error(.refused, "\(setting): \(error.message)") }
        return S3CredentialsSource(resolver: resolver)
    }

    /// `darkroom-HOST`, the host name cut to STS's 64 characters of `[A-Za-z0-9+=,.@_-]`.
    static func defaultSessionName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count - 1) == 0 ? String(cString: buffer) : "host"
        let allowed = host.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+=,.@_-".unicodeScalars.contains($0))
        }
        return String(("darkroom-" + String(String.UnicodeScalarView(allowed))).prefix(64))
    }
}
