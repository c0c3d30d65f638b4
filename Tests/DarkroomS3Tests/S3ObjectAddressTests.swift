import DarkroomS3
import Testing

@Suite("s3:// addresses, buckets and endpoints")
struct S3ObjectAddressTests {
    @Test("A bare bucket is on the default endpoint; ALIAS@ names another")
    func aliases() throws {
        let plain = try S3ObjectAddress.parse("s3://uploads/2026/11/a b+c=d é.jpg")
        #expect(plain.bucket == S3Bucket(endpoint: "default", name: "uploads"))
        #expect(plain.key == "2026/11/a b+c=d é.jpg")
        let named = try S3ObjectAddress.parse("S3://minio@uploads/x%20y?z#w")
        #expect(named.bucket == S3Bucket(endpoint: "minio", name: "uploads"))
        #expect(named.key == "x%20y?z#w", "keys are literal: no percent-decoding")
        #expect(named.description == "s3://minio@uploads/x%20y?z#w")
    }

    @Test(
        "Keys that could mean another object are refused",
        arguments: ["s3://b/a/../c", "s3://b/./a", "s3://b/a/..", "s3://b/a\u{1}b", "s3://b/a\u{7F}", "s3://b/"])
    func refusedKeys(text: String) {
        #expect(throws: S3Error.self) { try S3ObjectAddress.parse(text) }
    }

    @Test("A prefix may be empty when listing; empty segments are kept")
    func prefixes() throws {
        #expect(try S3ObjectAddress.parse("s3://b", allowEmptyKey: true).key == "")
        #expect(try S3ObjectAddress.parse("s3://b/a//c").key == "a//c")
    }

    @Test("Bad buckets and aliases are refused", arguments: ["s3://", "s3:///k", "s3://a@b@c/k", "s3://UP@b/k", "s3://b!/k", "http://b/k"])
    func refusedAuthorities(text: String) {
        #expect(throws: S3Error.self) { try S3ObjectAddress.parse(text) }
    }

    @Test("Only allowed (endpoint, bucket) pairs on configured endpoints are used")
    func allowList() throws {
        let minio = S3Endpoint(alias: "minio", url: "http://127.0.0.1:9000")
        let aws = S3Endpoint(alias: "default", url: "https://s3.amazonaws.com", addressing: .virtualHosted)
        let configuration = S3Configuration(
            endpoints: [minio, aws], allowedBuckets: [S3Bucket(endpoint: "minio", name: "Uploads_1")])
        #expect(try configuration.endpoint(for: S3ObjectAddress.parse("s3://minio@Uploads_1/k")) == minio)
        // The same name on another endpoint is another bucket.
        #expect(throws: S3Error.self) { try configuration.endpoint(for: S3ObjectAddress.parse("s3://Uploads_1/k")) }
        #expect(throws: S3Error.self) { try configuration.endpoint(for: S3ObjectAddress.parse("s3://nowhere@x/k")) }
        // A name that cannot be a DNS label cannot be virtual-hosted.
        var both = configuration
        both.allowedBuckets.insert(S3Bucket(endpoint: "default", name: "Uploads_1"))
        let error = #expect(throws: S3Error.self) { try both.endpoint(for: S3ObjectAddress.parse("s3://Uploads_1/k")) }
        #expect(error?.kind == .refused)
    }

    @Test("Credentials come from the environment and never print their secret")
    func credentials() {
        let environment = [
            "DARKROOM_S3_MY_MINIO_ACCESS_KEY_ID": "id", "DARKROOM_S3_MY_MINIO_SECRET_ACCESS_KEY": "s3cr3t",
            "AWS_ACCESS_KEY_ID": "aws-id", "AWS_SECRET_ACCESS_KEY": "aws-secret", "AWS_SESSION_TOKEN": "tok",
        ]
        let minio = S3Credentials.fromEnvironment(alias: "my-minio", environment: environment)
        #expect(minio == S3Credentials(accessKeyID: "id", secretAccessKey: "s3cr3t"))
        #expect(S3Credentials.fromEnvironment(alias: "default", environment: environment)?.sessionToken == "tok")
        #expect(S3Credentials.fromEnvironment(alias: "other", environment: environment) == nil)
        #expect(!String(describing: minio!).contains("s3cr3t"))
    }

    @Test("Transient kinds are the ones a retry can fix")
    func transience() {
        #expect(S3Error(.credentials, "").isTransient && S3Error(.clockSkew, "").isTransient)
        #expect(!S3Error(.forbidden, "").isTransient && !S3Error(.notFound, "").isTransient)
    }
}
