import DarkroomS3
import Testing

/// The signer against AWS's published Signature Version 4 test suite (`aws-sig-v4-test-suite`,
/// service `service`, 2015-08-30T12:36:00Z) and the worked examples of S3's API reference
/// ("Signature Calculations for the Authorization Header"): the expected canonical requests,
/// strings to sign and `Authorization` headers are AWS's own.
@Suite("SigV4 signing: AWS's test vectors")
struct SigV4SignerTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var name: String
        var method = "GET"
        var path = "/"
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var body = ""
        var token: String?
        var rule = SigV4PathRule.normalized
        var canonicalRequest: String?
        var stringToSign: String?
        var authorization: String
        var testDescription: String { name }
    }

    static let suiteSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let suiteTime = SigV4Timestamp(epochSeconds: 1_440_938_160)
    static let empty = SigV4Signer.emptyPayloadHash
    static let scope = "AKIDEXAMPLE/20150830/us-east-1/service/aws4_request"
    static func authz(_ signed: String, _ signature: String) -> String {
        "AWS4-HMAC-SHA256 Credential=\(scope), SignedHeaders=\(signed), Signature=\(signature)"
    }
    static let stsToken =
        "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA=="

    static let suite: [Vector] = [
        Vector(
            name: "get-vanilla",
            canonicalRequest: "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
            authorization: authz("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")),
        Vector(
            name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")],
            canonicalRequest:
                "GET\n/\nParam1=value1&Param2=value2\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
            authorization: authz("host;x-amz-date", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500")),
        Vector(
            name: "get-vanilla-query-order-key", query: [("Param1", "value2"), ("Param1", "Value1")],
            authorization: authz("host;x-amz-date", "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1")),
        Vector(
            name: "get-vanilla-query-order-value", query: [("Param1", "value2"), ("Param1", "value1")],
            authorization: authz("host;x-amz-date", "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694")),
        Vector(
            name: "get-vanilla-query-unreserved",
            query: [
                (
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                )
            ],
            authorization: authz("host;x-amz-date", "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197")),
        Vector(
            name: "get-vanilla-utf8-query", query: [("\u{1234}", "bar")],
            canonicalRequest: "GET\n/\n%E1%88%B4=bar\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            authorization: authz("host;x-amz-date", "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04")),
        Vector(
            name: "get-utf8", path: "/\u{1234}",
            canonicalRequest: "GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
            authorization: authz("host;x-amz-date", "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85")),
        Vector(
            name: "get-unreserved", path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            authorization: authz("host;x-amz-date", "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f")),
        Vector(
            name: "normalize-path/get-space", path: "/example space/",
            canonicalRequest:
                "GET\n/example%20space/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            authorization: authz("host;x-amz-date", "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741")),
        Vector(
            name: "normalize-path/get-relative", path: "/example/..",
            authorization: authz("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")),
        Vector(
            name: "normalize-path/get-relative-relative", path: "/example1/example2/../..",
            authorization: authz("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")),
        Vector(
            name: "normalize-path/get-slash", path: "//",
            authorization: authz("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")),
        Vector(
            name: "normalize-path/get-slash-dot-slash", path: "/./",
            authorization: authz("host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")),
        Vector(
            name: "normalize-path/get-slash-pointless-dot", path: "/./example",
            authorization: authz("host;x-amz-date", "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5")),
        Vector(
            name: "normalize-path/get-slashes", path: "//example//",
            canonicalRequest: "GET\n/example/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            authorization: authz("host;x-amz-date", "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84")),
        Vector(
            name: "get-header-key-duplicate",
            headers: [("My-Header1", "value2"), ("My-Header1", "value2"), ("My-Header1", "value1")],
            authorization: authz("host;my-header1;x-amz-date", "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea")),
        Vector(
            name: "get-header-value-order",
            headers: [("My-Header1", "value4"), ("My-Header1", "value1"), ("My-Header1", "value3"), ("My-Header1", "value2")],
            authorization: authz("host;my-header1;x-amz-date", "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01")),
        Vector(
            name: "get-header-value-trim", headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
            canonicalRequest:
                "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\nx-amz-date:20150830T123600Z\n\n"
                + "host;my-header1;my-header2;x-amz-date\n\(empty)",
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\na726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
            authorization: authz(
                "host;my-header1;my-header2;x-amz-date", "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736")),
        Vector(
            name: "post-vanilla", method: "POST",
            authorization: authz("host;x-amz-date", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b")),
        Vector(
            name: "post-vanilla-query", method: "POST", query: [("Param1", "value1")],
            authorization: authz("host;x-amz-date", "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11")),
        Vector(
            name: "post-header-key-sort", method: "POST", headers: [("My-Header1", "value1")],
            authorization: authz("host;my-header1;x-amz-date", "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c")),
        Vector(
            name: "post-header-value-case", method: "POST", headers: [("My-Header1", "VALUE1")],
            authorization: authz("host;my-header1;x-amz-date", "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d")),
        Vector(
            name: "post-x-www-form-urlencoded", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "Param1=value1",
            canonicalRequest:
                "POST\n/\n\ncontent-type:application/x-www-form-urlencoded\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                + "content-type;host;x-amz-date\n9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281",
            authorization: authz("content-type;host;x-amz-date", "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a")),
        Vector(
            name: "post-x-www-form-urlencoded-parameters", method: "POST",
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf8")], body: "Param1=value1",
            authorization: authz("content-type;host;x-amz-date", "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe")),
        Vector(
            name: "post-sts-token/post-sts-header-before", method: "POST", token: stsToken,
            stringToSign:
                "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nc237e1b440d4c63c32ca95b5b99481081cb7b13c7e40434868e71567c1a882f6",
            authorization: authz("host;x-amz-date;x-amz-security-token", "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead")),
        // The suite's "unnormalized" variants: S3's rule keeps every segment as it is.
        Vector(
            name: "S3 rule: get-space-unnormalized", path: "/example space/", rule: .s3,
            authorization: authz("host;x-amz-date", "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741")),
        Vector(
            name: "S3 rule: get-slashes-unnormalized", path: "//example//", rule: .s3,
            canonicalRequest: "GET\n//example//\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\(empty)",
            authorization: authz("host;x-amz-date", "87cca117541a147f6df867677d98a7d80dff226d2bfca9e4ffa899665623c7e5")),
        Vector(
            name: "S3 rule: get-relative-relative-unnormalized", path: "/example1/example2/../..", rule: .s3,
            authorization: authz("host;x-amz-date", "dc33e0856fd4baca4d7aa2146c38958283844764f38c74252a333df5e613003b")),
    ]

    @Test("AWS's SigV4 test suite", arguments: suite)
    func testSuite(vector: Vector) {
        let signer = SigV4Signer(
            credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.suiteSecret, sessionToken: vector.token),
            region: "us-east-1", service: "service", pathRule: vector.rule)
        let signed = signer.sign(
            method: vector.method, host: "example.amazonaws.com", path: vector.path, query: vector.query, headers: vector.headers,
            payloadHash: SigV4Signer.hexSHA256(Array(vector.body.utf8)), at: Self.suiteTime)
        if let expected = vector.canonicalRequest { #expect(signed.canonicalRequest == expected) }
        if let expected = vector.stringToSign { #expect(signed.stringToSign == expected) }
        #expect(signed.authorization == vector.authorization)
        #expect(signed.headers.contains { $0.name == "Authorization" && $0.value == vector.authorization })
        #expect(signed.headers.contains { $0.name == "x-amz-date" && $0.value == "20150830T123600Z" })
        #expect(signed.headers.contains { $0.name == "x-amz-security-token" } == (vector.token != nil))
    }
}
