import DarkroomS3
import DarkroomTestSupport
import Testing

/// What a `darkroom` process needs to use moto's buckets under the endpoint alias `moto`: the
/// object-storage flags, allowing `buckets`, and the endpoint's credentials as environment.
struct MotoCommandFlags {
    let endpoint: S3Endpoint
    let flags: [String]
    let environment: [String: String]

    init(_ moto: MotoS3Server, buckets: [String]) throws {
        endpoint = moto.endpoint(alias: "moto")
        flags = ["--s3-endpoint", "moto=\(endpoint.url);region=\(endpoint.region);addressing=path"] + buckets.flatMap { ["--allow-bucket", "moto@\($0)"] }
        let credentials = try #require(endpoint.credentials)
        environment = [
            "DARKROOM_S3_MOTO_ACCESS_KEY_ID": credentials.accessKeyID, "DARKROOM_S3_MOTO_SECRET_ACCESS_KEY": credentials.secretAccessKey,
        ]
    }
}
