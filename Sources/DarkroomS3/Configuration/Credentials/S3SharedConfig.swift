/// AWS's config file (`AWS_CONFIG_FILE`, default `~/.aws/config`) as far as Darkroom reads it:
/// the profile's `region` and `endpoint_url` for the default endpoint when the environment does
/// not set them, and whether the profile names a way of getting credentials Darkroom does not
/// support.
public enum S3SharedConfig {
    /// The profile `AWS_PROFILE` names, or `default`.
    public static func profileName(environment: [String: String]) -> String {
        nonEmpty(environment["AWS_PROFILE"]) ?? "default"
    }

    /// The config file's path: `AWS_CONFIG_FILE`, else `$HOME/.aws/config`; nil without either.
    public static func path(environment: [String: String]) -> String? {
        nonEmpty(environment["AWS_CONFIG_FILE"]) ?? nonEmpty(environment["HOME"]).map { $0 + "/.aws/config" }
    }

    /// The settings of the profile in the config file; nil when there is no file or no such
    /// profile. A file that cannot be parsed is an error naming it (`S3Error.Kind.refused`).
    public static func profile(environment: [String: String]) throws(S3Error) -> [String: String]? {
        guard let path = path(environment: environment) else { return nil }
        let text: String
        do { text = try S3SecretFile.read(path, what: "config file").text } catch {
            if S3SecretFile.isMissing(error) { return nil }
            throw S3Error(.refused, "AWS_CONFIG_FILE: \(error.message)")
        }
        do {
            return try S3ProfileFile.parse(text, path: path).profile(profileName(environment: environment), config: true)
        } catch {
            throw S3Error(.refused, "AWS_CONFIG_FILE: config file \(error.message)")
        }
    }

    /// `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the profile's `region`; nil when none is set.
    public static func region(environment: [String: String]) throws(S3Error) -> String? {
        if let region = nonEmpty(environment["AWS_REGION"]) ?? nonEmpty(environment["AWS_DEFAULT_REGION"]) { return region }
        return try profile(environment: environment).flatMap { nonEmpty($0["region"]) }
    }

    /// `AWS_ENDPOINT_URL`, else the profile's `endpoint_url`; nil when neither is set.
    public static func endpointURL(environment: [String: String]) throws(S3Error) -> String? {
        if let url = nonEmpty(environment["AWS_ENDPOINT_URL"]) { return url }
        return try profile(environment: environment).flatMap { nonEmpty($0["endpoint_url"]) }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
