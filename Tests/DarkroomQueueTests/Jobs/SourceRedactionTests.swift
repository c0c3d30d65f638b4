import DarkroomQueue
import DarkroomQueueContract
import Testing

@Suite("Source redaction")
struct SourceRedactionTests {
    private static func redact(_ source: String) -> String { SourceRedaction.redact(source) }

    @Test("Given a URL with user-info, only the user-info becomes ***")
    func userInfo() {
        #expect(Self.redact("https://alice:s3cret@example.com/a.jpg") == "https://***@example.com/a.jpg")
        #expect(Self.redact("https://token@example.com") == "https://***@example.com")
        #expect(Self.redact("http://a:b@c@example.com:8080/x") == "http://***@example.com:8080/x")
    }

    @Test("Given an @ in the query, nothing is taken for user-info")
    func atInQuery() {
        #expect(Self.redact("https://example.com/a.jpg?who=me@example.org") == "https://example.com/a.jpg?who=me@example.org")
        #expect(Self.redact("https://example.com?a=@b") == "https://example.com?a=@b")
        #expect(Self.redact("https://example.com/a#x?y@z") == "https://example.com/a#x?y@z")
    }

    @Test("Given an @ in the path, or in a fragment without a query, what precedes it is masked (the safe side)")
    func atInPathOrFragment() {
        #expect(Self.redact("https://example.com/@me/a.jpg") == "https://***@me/a.jpg")
        #expect(Self.redact("https://example.com#x@y") == "https://***@y")
        #expect(Self.redact("https://example.com/a.jpg?sig=1#x@y") == "https://example.com/a.jpg?sig=***#x@y")
    }

    @Test("Given a password with an unencoded / or #, the whole password is masked")
    func passwordsWithDelimiters() {
        #expect(Self.redact("https://user:p/ss@host/x") == "https://***@host/x")
        #expect(Self.redact("https://user:p#ss@host/") == "https://***@host/")
        #expect(Self.redact("https://user:p/s#s@host/x?sig=abc#top") == "https://***@host/x?sig=***#top")
        #expect(Self.redact("https://user:p/ss@host") == "https://***@host")
    }

    @Test("Given ;-separated parameters, each is read on its own and the separators are kept")
    func semicolonSeparators() {
        #expect(Self.redact("https://e.com/a?a=1;token=abc") == "https://e.com/a?a=1;token=***")
        #expect(Self.redact("https://e.com/a?sig=1;w=2&token=3;") == "https://e.com/a?sig=***;w=2&token=***;")
        #expect(Self.redact("https://e.com/a?;;sig=x") == "https://e.com/a?;;sig=***")
    }

    @Test("Redacting a redacted source changes nothing")
    func idempotent() {
        for source in [
            "https://user:p/ss@host/x?sig=1;token=2#f", "data:image/png;base64,AAAA", "data:" + String(repeating: "x", count: 5_000),
            "data:,… (12 bytes)", "https://e.com/@me?token=x", "/srv/in/a.jpg",
        ] {
            let once = Self.redact(source)
            #expect(Self.redact(once) == once, "\(source) → \(once)")
        }
    }

    @Test("Every URL in a message is redacted; the rest of the message is kept")
    func urlsInMessages() {
        #expect(
            SourceRedaction.redactURLs(in: "https://u:p@h/a?sig=1: redirects to http://h/b?token=2, which answered 403")
                == "https://***@h/a?sig=***: redirects to http://h/b?token=***, which answered 403")
        #expect(SourceRedaction.redactURLs(in: "/srv/in/a.jpg: not found") == "/srv/in/a.jpg: not found")
        #expect(SourceRedaction.redactURLs(in: "(see://x@y) ://z") == "(see://***@y) ://z")
    }

    @Test("Given an s3:// source, its endpoint alias is kept: it names a configured endpoint, it is no secret")
    func objectStorageAlias() {
        #expect(Self.redact("s3://minio@photos;etag=9b2c/in/a.jpg") == "s3://minio@photos;etag=9b2c/in/a.jpg")
        #expect(Self.redact("S3://r2-eu@photos/a.jpg") == "S3://r2-eu@photos/a.jpg")
        #expect(Self.redact("s3://key:secret@photos/a.jpg") == "s3://***@photos/a.jpg")
        #expect(Self.redact("https://minio@photos/a.jpg") == "https://***@photos/a.jpg")
    }

    @Test("Given an IPv6 host, it is kept, with or without user-info")
    func ipv6() {
        #expect(Self.redact("http://[::1]:8080/a.png?sig=abc") == "http://[::1]:8080/a.png?sig=***")
        #expect(Self.redact("http://u:p@[2001:db8::7]/a.png") == "http://***@[2001:db8::7]/a.png")
    }

    @Test("Given signed-URL parameters of S3 and GCS, their values become *** and the rest is kept")
    func signedParameters() {
        let s3 =
            "https://b.s3.amazonaws.com/k.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20250101&X-Amz-Date=20250101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=FwoG&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeef"
        #expect(
            Self.redact(s3)
                == "https://b.s3.amazonaws.com/k.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=***&X-Amz-Date=20250101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=***&X-Amz-SignedHeaders=host&X-Amz-Signature=***"
        )
        #expect(
            Self.redact("https://storage.googleapis.com/b/o?X-Goog-Credential=x&X-Goog-Signature=y&w=1")
                == "https://storage.googleapis.com/b/o?X-Goog-Credential=***&X-Goog-Signature=***&w=1")
        #expect(Self.redact("https://x.blob.core.windows.net/c/b.png?sv=2022&sig=abc%3D") == "https://x.blob.core.windows.net/c/b.png?sv=2022&sig=***")
        #expect(Self.redact("https://cdn.example/a.gif?token=abc&size=2") == "https://cdn.example/a.gif?token=***&size=2")
    }

    @Test("Parameter names match case-insensitively and percent-decoded; repeated ones are all masked")
    func namesAndRepeats() {
        #expect(Self.redact("https://e.com/a?x-amz-signature=1&SIG=2&Token=3") == "https://e.com/a?x-amz-signature=***&SIG=***&Token=***")
        #expect(Self.redact("https://e.com/a?%73ig=1&t%6Fken=2&X%2DAmz%2DSignature=3") == "https://e.com/a?%73ig=***&t%6Fken=***&X%2DAmz%2DSignature=***")
        #expect(Self.redact("https://e.com/a?sig=1&sig=2&sig") == "https://e.com/a?sig=***&sig=***&sig=***")
        #expect(Self.redact("https://e.com/a?signature=1&tokens=2&mysig=3") == "https://e.com/a?signature=1&tokens=2&mysig=3")
    }

    @Test("Given a fragment, it is kept and not read as a query; empty parameters keep their places")
    func fragmentsAndEmpties() {
        #expect(Self.redact("https://e.com/a?sig=1#token=2") == "https://e.com/a?sig=***#token=2")
        #expect(Self.redact("https://e.com/a#?sig=1") == "https://e.com/a#?sig=1")
        #expect(Self.redact("https://e.com/a?&&sig=1&") == "https://e.com/a?&&sig=***&")
        #expect(Self.redact("https://e.com/a?") == "https://e.com/a?")
    }

    @Test("Given no query, no user-info or no URL at all, the source is unchanged")
    func unchanged() {
        for source in [
            "https://example.com/photos/cat.jpg", "http://example.com", "/srv/in/cat.jpg", "relative/dir/a b.png",
            "C:/odd/path.png", "./sig=1?token=2", "https://", "mailto:someone@example.com", "é/ü.png",
        ] {
            #expect(Self.redact(source) == source)
        }
    }

    @Test("Given 2,000 randomised URLs, no credential survives and everything else is kept in place")
    func randomised() {
        var random = QueueContractRandom(seed: 22)
        func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &random)] }
        for index in 0..<2_000 {
            let secret = "SECRET\(index)"
            let user = pick(["", "alice:\(secret)@", "\(secret)@", "a@b:\(secret)@"])
            let host = pick(["example.com", "[::1]:8080", "[2001:db8::7]", "10.0.0.1:9000", "b.s3.amazonaws.com"])
            let path = pick(["", "/", "/a.jpg", "/@me/b.png", "/x%40y/c.gif"])
            var query: [(String, String)] = []
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                if Bool.random(using: &random) {
                    let name = pick(["X-Amz-Signature", "x-amz-credential", "X-AMZ-SECURITY-TOKEN", "X-Goog-Signature", "sig", "Token", "%73ig"])
                    query.append((name + "=" + secret, name + "=***"))
                } else {
                    let plain = pick(["w=1", "who=me@example.org", "signature=ok", "", "a=b=c", "tokens=2"])
                    query.append((plain, plain))
                }
            }
            let fragment = pick(["", "#top", "#sig=visible"])
            let queryText = query.isEmpty ? "" : "?" + query.map(\.0).joined(separator: "&")
            let source = "https://" + user + host + path + queryText + fragment
            let redacted = SourceRedaction.redact(source)
            #expect(!redacted.contains(secret), "\(source) → \(redacted)")
            let expectedQuery = query.isEmpty ? "" : "?" + query.map(\.1).joined(separator: "&")
            // An @ in the path masks what precedes it, user-info or not.
            let authorityAndPath = path.contains("@") ? "***@" + path.split(separator: "@").last! : (user.isEmpty ? "" : "***@") + host + path
            let expected = "https://" + authorityAndPath + expectedQuery + fragment
            #expect(redacted == expected, "\(source)")
            if redacted != expected { return }
        }
    }

    @Test("Given a data: URI, its header and the whole URI's length in bytes remain")
    func dataURIs() {
        let payload = String(repeating: "A", count: 12_320)
        let uri = "data:image/png;base64," + payload
        #expect(Self.redact(uri) == "data:image/png;base64,… (12,342 bytes)")
        #expect(Self.redact("DATA:,hi") == "DATA:,… (8 bytes)")
        #expect(Self.redact("data:text/plain;charset=utf-8,%F0%9F%98%80") == "data:text/plain;charset=utf-8,… (42 bytes)")
        let noComma = "data:" + String(repeating: "x", count: 500)
        #expect(Self.redact(noComma) == "data:… (505 bytes)")
        #expect(Self.redact("DATA:secret") == "DATA:… (11 bytes)")
    }
}
