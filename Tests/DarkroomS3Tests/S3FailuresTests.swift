import DarkroomSystem
import Testing

@testable import DarkroomS3

@Suite("S3 errors and request targets")
struct S3FailuresTests {
    @Test(
        "Status and <Code> map onto the kinds their documentation gives",
        arguments: [
            (403, "InvalidAccessKeyId", S3Error.Kind.credentials), (403, "SignatureDoesNotMatch", .credentials),
            (403, "ExpiredToken", .credentials), (400, "ExpiredToken", .credentials), (403, "InvalidToken", .credentials),
            (403, "TokenRefreshRequired", .credentials), (403, "RequestTimeTooSkewed", .clockSkew), (403, "AccessDenied", .forbidden),
            (403, nil, .forbidden), (404, "NoSuchKey", .notFound), (404, nil, .notFound), (503, "SlowDown", .throttled),
            (503, "ServiceUnavailable", .throttled), (429, nil, .throttled), (503, nil, .server), (500, "InternalError", .server),
            (502, nil, .server), (301, "PermanentRedirect", .redirect), (307, nil, .redirect), (400, "InvalidArgument", .client),
            (400, "AuthorizationHeaderMalformed", .client), (411, nil, .client),
        ] as [(Int, String?, S3Error.Kind)])
    func kinds(status: Int, code: String?, kind: S3Error.Kind) {
        #expect(S3Failures.kind(status: status, code: code) == kind)
    }

    @Test("An error message holds neither the access key id nor the string to sign a body carried")
    func noBodyInMessages() {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code>\
            <Message>The request signature we calculated does not match the signature you provided.</Message>\
            <AWSAccessKeyId>AKIAIOSFODNN7EXAMPLE</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256\n20260101T000000Z\n\
            20260101/us-east-1/s3/aws4_request\n0123</StringToSign><CanonicalRequest>GET /b/k</CanonicalRequest></Error>
            """
        let endpoint = S3Endpoint(alias: "minio", url: "http://127.0.0.1:9000")
        let error = S3Failures.status(
            S3HTTPResponse(status: 403, headers: [:], body: Array(body.utf8)), subject: "GetObject s3://minio@b/k", endpoint: endpoint)
        #expect(error.kind == .credentials && error.isTransient)
        #expect(error.serviceCode == "SignatureDoesNotMatch" && error.status == 403)
        for secret in ["AKIAIOSFODNN7EXAMPLE", "StringToSign", "AWS4-HMAC-SHA256", "aws4_request", "calculated", "CanonicalRequest"] {
            #expect(!error.message.contains(secret))
        }
        #expect(error.message.contains("GetObject s3://minio@b/k") && error.message.contains("403 SignatureDoesNotMatch"))
    }

    @Test("Path-style and virtual-hosted targets: the Host, the encoded path, the canonical query")
    func targets() throws {
        let path = S3Endpoint(alias: "minio", url: "http://10.1.2.3:9000/")
        let pathTarget = try S3RequestTarget(endpoint: path, bucket: "photos", key: "a b/c+d.jpg")
        #expect(pathTarget.host == "10.1.2.3:9000")
        #expect(pathTarget.url(query: []) == "http://10.1.2.3:9000/photos/a%20b/c%2Bd.jpg")
        let virtual = S3Endpoint(alias: "aws", url: "https://S3.eu-west-1.amazonaws.com", region: "eu-west-1", addressing: .virtualHosted)
        let virtualTarget = try S3RequestTarget(endpoint: virtual, bucket: "photos", key: "2026/日本.jpg")
        #expect(virtualTarget.host == "photos.s3.eu-west-1.amazonaws.com")
        #expect(virtualTarget.url(query: []) == "https://photos.s3.eu-west-1.amazonaws.com/2026/%E6%97%A5%E6%9C%AC.jpg")
        let listing = try S3RequestTarget(endpoint: virtual, bucket: "photos", key: nil)
        #expect(listing.url(query: [("prefix", "a/b"), ("list-type", "2")]) == "https://photos.s3.eu-west-1.amazonaws.com/?list-type=2&prefix=a%2Fb")
        for bad in ["s3.amazonaws.com", "ftp://host", "https://host/bucket", "https://user:pw@host", "https://"] {
            #expect(throws: S3Error.self) { try S3RequestTarget(endpoint: S3Endpoint(alias: "x", url: bad), bucket: "b", key: "k") }
        }
    }

    @Test("A signed request carries the signed Host, the payload hash and the Authorization")
    func signedRequest() throws {
        let endpoint = S3Endpoint(
            alias: "aws", url: "https://s3.eu-west-1.amazonaws.com", region: "eu-west-1", addressing: .virtualHosted,
            credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token"))
        let client = S3Client(endpoint: endpoint, pool: BlockingWorkPool(threadCount: 1))
        let call = S3Client.Call(operation: "PutObject", method: "PUT", bucket: "photos", key: "k", body: Array("hi".utf8))
        let request = try client.buildRequest(call, at: SigV4Timestamp(epochSeconds: 1_440_938_160))
        func header(_ name: String) -> String? { request.headers.first { $0.name.lowercased() == name }?.value }
        #expect(request.url == "https://photos.s3.eu-west-1.amazonaws.com/k")
        #expect(header("host") == "photos.s3.eu-west-1.amazonaws.com")
        #expect(header("x-amz-content-sha256") == SigV4Signer.hexSHA256(Array("hi".utf8)))
        #expect(header("x-amz-security-token") == "token")
        #expect(
            header("authorization")?.hasPrefix(
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/s3/aws4_request, "
                    + "SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=") == true)
        #expect(S3Client.contentMD5(Array("hello".utf8)) == "XUFAKrxLKna5cZ2REBfFkg==")
    }
}
