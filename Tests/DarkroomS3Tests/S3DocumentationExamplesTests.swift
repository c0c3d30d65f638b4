import DarkroomS3
import Testing

/// The worked examples of S3's API reference ("Signature Calculations for the Authorization
/// Header: Transferring Payload in a Single Chunk"), which sign for service `s3` with
/// `x-amz-content-sha256`, as every request of the client does.
@Suite("SigV4 signing: S3's documented examples")
struct S3DocumentationExamplesTests {
    static let signer = SigV4Signer(
        credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    static let time = SigV4Timestamp(epochSeconds: 1_369_353_600)
    static let empty = SigV4Signer.emptyPayloadHash

    static func authz(_ signed: String, _ signature: String) -> String {
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=\(signed), Signature=\(signature)"
    }

    @Test("The timestamp is written as x-amz-date wants it")
    func timestamp() {
        #expect(Self.time.amzDate == "20130524T000000Z")
        #expect(Self.time.day == "20130524")
        #expect(SigV4Timestamp(epochSeconds: 951_782_400).amzDate == "20000229T000000Z")
    }

    @Test("GET Object with a Range")
    func getObject() {
        let signed = Self.signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt",
            headers: [("Range", "bytes=0-9"), ("x-amz-content-sha256", Self.empty)], payloadHash: Self.empty, at: Self.time)
        #expect(
            signed.canonicalRequest
                == "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\nx-amz-content-sha256:\(Self.empty)\n"
                + "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n\(Self.empty)")
        #expect(
            signed.stringToSign
                == "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"
        )
        #expect(
            signed.authorization
                == Self.authz(
                    "host;range;x-amz-content-sha256;x-amz-date", "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"))
    }

    @Test("PUT Object: a key with '$', a body, a Date and a storage class")
    func putObject() {
        let body = Array("Welcome to Amazon S3.".utf8)
        let hash = SigV4Signer.hexSHA256(body)
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let signed = Self.signer.sign(
            method: "PUT", host: "examplebucket.s3.amazonaws.com", path: "/test$file.text",
            headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"), ("x-amz-content-sha256", hash)],
            payloadHash: hash, at: Self.time)
        #expect(signed.canonicalRequest.hasPrefix("PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"))
        #expect(
            signed.authorization
                == Self.authz(
                    "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                    "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"))
    }

    @Test("GET Bucket lifecycle: a parameter without a value")
    func lifecycle() {
        let signed = Self.signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: [("lifecycle", "")],
            headers: [("x-amz-content-sha256", Self.empty)], payloadHash: Self.empty, at: Self.time)
        #expect(signed.canonicalRequest.hasPrefix("GET\n/\nlifecycle=\n"))
        #expect(
            signed.authorization
                == Self.authz("host;x-amz-content-sha256;x-amz-date", "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"))
    }

    @Test("GET Bucket (list objects): the query sorted")
    func listObjects() {
        let signed = Self.signer.sign(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/", query: [("prefix", "J"), ("max-keys", "2")],
            headers: [("x-amz-content-sha256", Self.empty)], payloadHash: Self.empty, at: Self.time)
        #expect(signed.canonicalRequest.hasPrefix("GET\n/\nmax-keys=2&prefix=J\n"))
        #expect(
            signed.authorization
                == Self.authz("host;x-amz-content-sha256;x-amz-date", "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test("S3's path rule encodes each key byte once and keeps '/', never '%25' twice")
    func s3PathRule() {
        #expect(SigV4Encoding.canonicalPath("/b/a b+c=d%e/é/日本/~x", rule: .s3) == "/b/a%20b%2Bc%3Dd%25e/%C3%A9/%E6%97%A5%E6%9C%AC/~x")
        #expect(SigV4Encoding.canonicalPath("/b/a//./../c", rule: .s3) == "/b/a//./../c")
        #expect(SigV4Encoding.canonicalPath("/b/a//./../c", rule: .normalized) == "/b/c")
        #expect(SigV4Encoding.canonicalQuery([("prefix", "a/b c"), ("list-type", "2")]) == "list-type=2&prefix=a%2Fb%20c")
        #expect(SigV4Encoding.canonicalHeaderValue("  a   b \t c  ") == "a b c")
    }
}
