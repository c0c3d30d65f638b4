import ArgumentParser
import DarkroomS3
import DarkroomSources
import Foundation

/// The object-storage flags (docs/object-storage.md#endpoints-and-buckets), shared by every
/// command that reads or writes buckets: `--s3-endpoint` and `--allow-bucket`, with
/// `DARKROOM_S3_ENDPOINTS` and `DARKROOM_S3_ALLOW_BUCKETS` (white-space separated) when the flags
/// are absent. Credentials come only from the environment and the files it names
/// (`S3CredentialsResolution`).
struct S3Options: ParsableArguments {
    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "An S3-compatible endpoint (repeatable): [ALIAS=]URL[;region=R][;addressing=path|virtual][;ca-file=PATH]. Without ALIAS= it is the default endpoint of s3://bucket/key. Default: $DARKROOM_S3_ENDPOINTS, else $AWS_ENDPOINT_URL. Credentials come from DARKROOM_S3_<ALIAS>_ACCESS_KEY_ID and _SECRET_ACCESS_KEY, or _CREDENTIALS_FILE (for the default endpoint also AWS's variables, web identity and shared files; docs/object-storage.md#credentials).",
            valueName: "spec"))
    var endpoints: [String] = []

    @Option(
        name: .customLong("allow-bucket"),
        help: ArgumentHelp(
            "A bucket s3:// sources and outputs may use (repeatable), on the default endpoint or ALIAS@BUCKET. Default: $DARKROOM_S3_ALLOW_BUCKETS. None: object storage is off.",
            valueName: "[alias@]bucket"))
    var buckets: [String] = []

    /// The configuration these flags (or the environment) describe, with each endpoint's
    /// credentials from `environment`; a mistake names its flag.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure) -> S3Configuration {
        let specifications = endpoints.isEmpty ? Self.words(environment["DARKROOM_S3_ENDPOINTS"]) : endpoints
        var parsed: [String: S3Endpoint] = [:]
        for text in specifications {
            var endpoint: S3Endpoint
            do { endpoint = try S3EndpointSpecification.parse(text) } catch { throw UsageFailure(error.message) }
            guard parsed[endpoint.alias] == nil else {
                throw UsageFailure("--s3-endpoint: two endpoints are called '\(endpoint.alias)'; give each its own ALIAS=")
            }
            if let caFile = endpoint.caFile, !Self.isFile(caFile) {
                throw UsageFailure("--s3-endpoint '\(text)': ca-file '\(caFile)' is not a file; give the path of a PEM bundle")
            }
            endpoint.credentialsSource = try Self.credentials(endpoint, environment)
            parsed[endpoint.alias] = endpoint
        }
        if parsed[S3Endpoint.defaultAlias] == nil, let aws = try Self.awsDefaultEndpoint(environment) {
            var endpoint: S3Endpoint
            do { endpoint = try S3EndpointSpecification.parse("\(aws.url);region=\(aws.region)") } catch {
                throw UsageFailure("AWS_ENDPOINT_URL: \(error.message)")
            }
            endpoint.credentialsSource = try Self.credentials(endpoint, environment)
            parsed[endpoint.alias] = endpoint
        }
        var allowed: Set<S3Bucket> = []
        for text in buckets.isEmpty ? Self.words(environment["DARKROOM_S3_ALLOW_BUCKETS"]) : buckets {
            guard let bucket = S3Bucket(parsing: text) else {
                throw UsageFailure("--allow-bucket '\(text)' is not [ALIAS@]BUCKET (a bucket of letters, digits, '.', '-', '_')")
            }
            guard parsed[bucket.endpoint] != nil else {
                throw UsageFailure(
                    "--allow-bucket '\(text)': no endpoint '\(bucket.endpoint)' is configured; add --s3-endpoint '\(bucket.endpoint == S3Endpoint.defaultAlias ? "" : bucket.endpoint + "=")URL'"
                )
            }
            allowed.insert(bucket)
        }
        return S3Configuration(endpoints: Array(parsed.values), allowedBuckets: allowed)
    }

    /// The `s3` provider for these flags, to register beside the standard ones. It is registered
    /// even when no bucket is allowed, so an `s3://` source is refused with a message naming
    /// `--allow-bucket` (`source.refused`) rather than as an unknown scheme.
    func providerFactory(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure) -> ProviderFactory {
        S3Provider.factory(try configuration(environment: environment))
    }

    /// `providers` and the `s3` provider, unless a plugin module already provides `s3`.
    func providers(adding providers: [ProviderFactory]) throws(UsageFailure) -> [ProviderFactory] {
        if providers.contains(where: { $0.schemes.contains("s3") }) { return providers }
        return providers + [try providerFactory()]
    }

    /// The credentials of `endpoint` (`S3CredentialsResolution`); a setting that cannot work is a
    /// usage error naming it.
    private static func credentials(_ endpoint: S3Endpoint, _ environment: [String: String]) throws(UsageFailure)
        -> S3CredentialsSource
    {
        do throws(S3Error) {
            return try S3CredentialsResolution.source(alias: endpoint.alias, region: endpoint.region, environment: environment)
        } catch {
            throw UsageFailure(error.message)
        }
    }

    /// AWS's default endpoint: `AWS_ENDPOINT_URL` (else the config file profile's `endpoint_url`)
    /// and its region (`AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else
    /// `us-east-1`); nil without a URL.
    private static func awsDefaultEndpoint(_ environment: [String: String]) throws(UsageFailure) -> (url: String, region: String)? {
        do throws(S3Error) {
            guard let url = try S3SharedConfig.endpointURL(environment: environment) else { return nil }
            return (url, try S3SharedConfig.region(environment: environment) ?? "us-east-1")
        } catch {
            throw UsageFailure(error.message)
        }
    }

    private static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    private static func words(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
    }
}
