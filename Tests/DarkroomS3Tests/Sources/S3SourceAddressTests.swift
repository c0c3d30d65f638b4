import DarkroomS3
import DarkroomSources
import Testing

@Suite("s3:// sources pinned to an ETag, and the endpoint flag's text")
struct S3SourceAddressTests {
    @Test("';etag=' in the authority pins the source; the key stays literal")
    func pinned() throws {
        let source = try S3SourceAddress.parse("s3://minio@uploads;etag=9b2c-2/a;etag=x/b#c")
        #expect(source.object == S3ObjectAddress(bucket: S3Bucket(endpoint: "minio", name: "uploads"), key: "a;etag=x/b#c"))
        #expect(source.etag == "9b2c-2")
        #expect(source.description == "s3://minio@uploads;etag=9b2c-2/a;etag=x/b#c")
        #expect(try S3SourceAddress.parse(source.description) == source)
        let plain = try S3SourceAddress.parse("s3://uploads/a.jpg")
        #expect(plain.etag == nil && plain.description == "s3://uploads/a.jpg")
        #expect(S3SourceAddress.identity(plain.object, etag: "e1") == "s3://default@uploads/a.jpg#e1")
    }

    @Test("Other parameters and ETags that cannot be written are refused", arguments: ["s3://u;x=1/k", "s3://u;etag=/k", "s3://u;etag=a b/k"])
    func refused(text: String) {
        #expect(throws: S3Error.self) { try S3SourceAddress.parse(text) }
    }

    @Test("An ETag with characters a source cannot hold is not pinned")
    func unpinnable() throws {
        let object = try S3ObjectAddress.parse("s3://u/k")
        #expect(S3SourceAddress(object: object, etag: "a/b").etag == nil)
    }

    @Test("--s3-endpoint: alias, URL, region, addressing, CA file")
    func endpointSpecification() throws {
        let minio = try S3EndpointSpecification.parse("minio=http://10.0.0.5:9000/;region=eu-1;addressing=path;ca-file=/ca.pem")
        #expect(minio.alias == "minio" && minio.url == "http://10.0.0.5:9000" && minio.region == "eu-1")
        #expect(minio.addressing == .path && minio.caFile == "/ca.pem" && minio.credentials == nil)
        let aws = try S3EndpointSpecification.parse("https://s3.eu-west-1.amazonaws.com;region=eu-west-1;addressing=virtual")
        #expect(aws.alias == "default" && aws.addressing == .virtualHosted && aws.region == "eu-west-1")
        for bad in ["ftp://x", "a=http://x/path", "http://x;addressing=dns", "http://x;colour=red", "BAD=http://x", "http://x;region="] {
            #expect(throws: S3Error.self, "\(bad)") { try S3EndpointSpecification.parse(bad) }
        }
    }

    @Test("S3 failures map onto source codes; credentials and clock skew are transient")
    func errorCodes() {
        let expected: [S3Error.Kind: (SourceError.Code, Bool)] = [
            .notFound: (.notFound, false), .forbidden: (.forbidden, false), .credentials: (.credentials, true),
            .clockSkew: (.clockSkew, true), .throttled: (.rateLimited, true), .server: (.httpServerError, true),
            .client: (.httpClientError, false), .redirect: (.redirectRefused, false), .connection: (.connection, true),
            .timeout: (.timeout, true), .tooLarge: (.tooLarge, false), .badResponse: (.httpServerError, true), .refused: (.refused, false),
        ]
        for kind in S3Error.Kind.allCases {
            let error = S3Error(kind, "m").sourceError(for: "s3://b/k")
            #expect(error.code == expected[kind]?.0 && error.isTransient == expected[kind]?.1, "\(kind)")
            #expect(error.isTransient == S3Error(kind, "m").isTransient, "\(kind): the same classification as the S3 error's")
        }
    }
}
