import DarkroomSources
import DarkroomTestSupport
import Testing

@Suite("Source URLs: strict parsing and one normal form")
struct SourceURLTests {
    @Test(
        "Spellings of one resource share one normal form (and so one cache key)",
        arguments: [
            ("HTTP://Example.COM:80/a.jpg#x", "http://example.com/a.jpg"),
            ("http://example.com/a.jpg", "http://example.com/a.jpg"),
            ("https://example.com:443/a.jpg", "https://example.com/a.jpg"),
            ("https://example.com:8443/a.jpg", "https://example.com:8443/a.jpg"),
            ("http://example.com:0080/a.jpg", "http://example.com/a.jpg"),
            ("http://example.com:/a.jpg", "http://example.com/a.jpg"),
            ("http://example.com", "http://example.com/"),
            ("http://example.com?x=1", "http://example.com/?x=1"),
            ("http://example.com./a.jpg", "http://example.com/a.jpg"),
            ("http://example.com/a/./b/../c.jpg", "http://example.com/a/c.jpg"),
            ("http://example.com/a/%2e%2E/c.jpg", "http://example.com/c.jpg"),
            ("http://example.com/%7Euser/%41.jpg", "http://example.com/~user/A.jpg"),
            ("http://example.com/a%2fb%3F.jpg?q=%c3%a9", "http://example.com/a%2Fb%3F.jpg?q=%C3%A9"),
            ("http://example.com/a b/é.jpg", "http://example.com/a%20b/%C3%A9.jpg"),
            ("http://example.com/../../etc/passwd", "http://example.com/etc/passwd"),
            ("  http://example.com/a.jpg\n", "http://example.com/a.jpg"),
            ("http://example.com/a.jpg?", "http://example.com/a.jpg"),
            ("http://[::FFFF:127.0.0.1]:8080/x", "http://[::ffff:127.0.0.1]:8080/x"),
            ("http://[0:0:0:0:0:0:0:1]/", "http://[::1]/"),
        ])
    func normalForm(text: String, expected: String) throws {
        #expect(try SourceURL(parsing: text).serialized == expected)
    }

    @Test(
        "Every WHATWG spelling of an IPv4 address becomes a dotted quad",
        arguments: [
            ("http://2130706433/", "127.0.0.1"), ("http://0x7f.1/", "127.0.0.1"), ("http://127.1/", "127.0.0.1"),
            ("http://017700000001/", "127.0.0.1"), ("http://0x7F000001/", "127.0.0.1"), ("http://127.0.1/", "127.0.0.1"),
            ("http://0177.0.0.01/", "127.0.0.1"), ("http://127.0.0.1./", "127.0.0.1"), ("http://0/", "0.0.0.0"),
            ("http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"), ("http://3232235521/", "192.168.0.1"),
            ("http://10.0.0.1/", "10.0.0.1"), ("http://0x/", "0.0.0.0"),
        ])
    func ipv4Spellings(text: String, expected: String) throws {
        let url = try SourceURL(parsing: text)
        #expect(url.host == expected)
        #expect(url.hostKind == .ipv4)
    }

    @Test(
        "Text that is not a plain http(s) URL is invalid, with a reason",
        arguments: [
            ("", "empty"), ("example.com/a.jpg", "not a URL"), ("http:example.com", "http://"),
            ("http:/example.com", "http://"), ("http://", "no host"), ("http:///a.jpg", "no host"),
            ("http://exa mple.com/", "character ' '"), ("http://exa\tmple.com/", "control character"),
            ("http://example.com\\@evil/", "backslash"), ("http://ex%61mple.com/", "percent-encoded host"),
            ("http://exämple.com/", "punycode"), ("http://a..b/", "empty label"), ("http://1.2.3.4.5/", "ends in a number"),
            ("http://foo.09/", "ends in a number"), ("http://256.0.0.1/", "ends in a number"),
            ("http://example.com:65536/", "port"), ("http://example.com:0/", "port"), ("http://example.com:8o/", "port"),
            ("http://[::1/", "closing ]"), ("http://[fe80::1%25eth0]/", "zone"), ("http://[::1]x/", "after the IPv6"),
            ("http://[127.0.0.1]/", "IPv6 address that cannot be read"), ("http://example.com/%zz", "two hex digits"),
            ("http://example.com/a/..;/b", "'..;'"), ("http://a:b:c/", "port"),
        ])
    func invalid(text: String, reason: String) {
        #expect {
            try SourceURL(parsing: text)
        } throws: { error in
            guard let problem = error as? SourceURL.Problem else { return false }
            return problem.kind == .invalid && problem.message.contains(reason)
        }
    }

    @Test(
        "Other schemes and URLs carrying credentials are refused, not merely invalid",
        arguments: [
            "ftp://example.com/a.jpg", "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "dict://127.0.0.1:11211/",
            "javascript:alert(1)", "http://user@example.com/", "http://user:pw@example.com/", "http://@example.com/",
            "http://images.example.com@evil.com/", "http://images.example.com:80@evil.com/",
        ])
    func refused(text: String) {
        #expect {
            try SourceURL(parsing: text)
        } throws: { error in
            (error as? SourceURL.Problem)?.kind == .refused
        }
    }

    @Test("The fragment and the authority end where RFC 3986 says, not where the eye might look")
    func authorityBoundaries() throws {
        let fragment = try SourceURL(parsing: "http://images.example.com#@evil.com/")
        #expect(fragment.host == "images.example.com")
        #expect(fragment.serialized == "http://images.example.com/")
        let query = try SourceURL(parsing: "http://images.example.com?@evil.com/")
        #expect(query.host == "images.example.com")
        #expect(query.query == "@evil.com/")
    }

    @Test("A normalised URL parses back to itself")
    func idempotent() throws {
        for text in ["HTTP://Example.com:80/a/../b%2f%7e?q=%c3", "http://0x7f.1:8080/x/./y", "https://[::FFFF:7f00:1]/"] {
            let once = try SourceURL(parsing: text)
            #expect(try SourceURL(parsing: once.serialized) == once)
        }
    }
}
