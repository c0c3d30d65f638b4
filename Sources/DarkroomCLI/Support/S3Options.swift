import ArgumentParser
import DarkroomS3
import DarkroomSources
import Foundation

/// The object-storage flags (docs/object-storage.md#endpoints-and-buckets), shared by every
/// command that reads or writes buckets: `--s3-endpoint` and `--allow-bucket`, with
/// `DARKROOM_S3_ENDPOINTS` and `DARKROOM_S3_ALLOW_BUCKETS` (white-space separated) when the flags
/// are absent. Credentials come only from the environment (`S3Credentials.fromEnvironment`).
struct S3Options: ParsableArguments {
    @Option(
        name: .customLong("s3-endpoint"),
        help: ArgumentHelp(
            "An S3-compatible endpoint (repeatable): [ALIAS=]URL[;region=R][;addressing=path|virtual][;ca-file=PATH]. Without ALIAS= it is the default endpoint of s3://bucket/key. Default: $DARKROOM_S3_ENDPOINTS, else $AWS_ENDPOINT_URL. Credentials come from DARKROOM_S3_<ALIAS>_ACCESS_KEY_ID and _SECRET_ACCESS_KEY (AWS_* for the default endpoint).",
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
            endpoint.credentials = S3Credentials.fromEnvironment(alias: endpoint.alias, environment: environment)
            parsed[endpoint.alias] = endpoint
        }
        if parsed[S3Endpoint.defaultAlias] == nil, let url = environment["AWS_ENDPOINT_URL"], !url.isEmpty {
            let region = environment["AWS_REGION"].flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
            var endpoint: S3Endpoint
            do { endpoint = try S3EndpointSpecification.parse("\(url);region=\(region)") } catch {
                throw UsageFailure("AWS_ENDPOINT_URL: \(error.message)")
            }
            endpoint.credentials = S3Credentials.fromEnvironment(alias: S3Endpoint.defaultAlias, environment: environment)
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

    private static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    private static func words(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
    }
}
