import DarkroomSources
import DarkroomTestSupport
import Testing

@Suite("Allow-list of source prefixes")
struct SourceAllowListTests {
    static let list = try! SourceAllowList(["http://images.example.com/", "https://cdn.example.net/photos"])

    /// Whether `text` parses and falls under the list.
    static func allowed(_ text: String) -> Bool {
        guard let url = try? SourceURL(parsing: text) else { return false }
        return (try? list.check(url)) == true
    }

    @Test(
        "URLs under a prefix pass, whatever the case of scheme and host or an explicit default port",
        arguments: [
            "http://images.example.com/a.jpg", "HTTP://IMAGES.Example.COM/a.jpg", "http://images.example.com:80/a.jpg",
            "http://images.example.com./a.jpg", "http://images.example.com", "http://images.example.com/a.jpg?w=1#top",
            "https://cdn.example.net/photos", "https://cdn.example.net/photos/2024/a.jpg", "https://cdn.example.net:443/photos/a.jpg",
            "https://cdn.example.net/photos/x/../b.jpg", "https://cdn.example.net/%70hotos/a.jpg",
        ])
    func allowedURLs(text: String) {
        #expect(Self.allowed(text))
    }

    @Test(
        "Bypass attempts are refused",
        arguments: [
            "http://images.example.com@evil.com/",  // user information naming the allowed host
            "http://images.example.com:80@evil.com/",
            "http://images.example.com%40evil.com/",
            "http://evil.com@images.example.com/",  // user information is refused outright
            "http://images.example.com.evil.com/",  // a longer host
            "http://images.example.com.evil.com./",
            "http://evilimages.example.com/",
            "http://evil.com/images.example.com/",
            "http://evil.com/?http://images.example.com/",
            "http://evil.com#http://images.example.com/",
            "http://images.example.com\\@evil.com/",
            "http://images.example.com:8080/a.jpg",  // another port
            "https://images.example.com/a.jpg",  // another scheme
            "http://cdn.example.net/photos/a.jpg",
            "https://cdn.example.net/photosX/a.jpg",  // not at a segment boundary
            "https://cdn.example.net/photos.jpg",
            "https://cdn.example.net/photos/../secret",  // dot segments, plain and encoded
            "https://cdn.example.net/photos/%2e%2e/secret",
            "https://cdn.example.net/photos/..;/secret",
            "https://cdn.example.net/photos/..%2Fsecret",  // an encoded separator a server may decode
            "https://cdn.example.net/photos%2F..%2Fsecret",
            "https://cdn.example.net/photos/%5C..%5Csecret",
            "https://cdn.example.net/PHOTOS/a.jpg",  // paths are case-sensitive
            "ftp://images.example.com/a.jpg",
        ])
    func bypasses(text: String) {
        #expect(!Self.allowed(text))
    }

    @Test("An empty list allows any URL but names none (so none may be private)")
    func emptyList() throws {
        let list = try SourceAllowList([])
        #expect(list.isEmpty)
        #expect(try list.check(SourceURL(parsing: "http://anything.example/")) == false)
    }

    @Test("A refusal names the allowed prefixes and the flag that adds one")
    func refusalMessage() throws {
        let url = try SourceURL(parsing: "http://images.example.com.evil.com/a.jpg")
        #expect {
            try Self.list.check(url)
        } throws: { error in
            let problem = try #require(error as? SourceURL.Problem)
            return problem.kind == .refused && problem.message.contains("http://images.example.com/")
                && problem.message.contains("--allow-source")
        }
    }

    @Test(
        "A malformed prefix is a configuration error naming it",
        arguments: [
            "images.example.com", "http://user@images.example.com/", "http://images.example.com/?q=1", "ftp://x/",
            "http://images.example.com/#frag",
        ])
    func badPrefix(text: String) {
        #expect {
            try SourceAllowList([text])
        } throws: { error in
            ((error as? SourceURL.Problem)?.message.contains(text)) == true
        }
    }

    @Test("Only the hop a prefix names may reach a private address")
    func guardPermissions() throws {
        var policy = SourcePolicy()
        policy.allowedSourcePrefixes = ["http://10.1.2.3:8080/"]
        let sourceGuard = try SourceGuard(policy)
        let (_, named) = try sourceGuard.authorize("http://10.1.2.3:8080/a.jpg")
        #expect(named.allowsInternalNetworks)
        #expect(throws: SourceURL.Problem.self) { try sourceGuard.authorize("http://10.1.2.4:8080/a.jpg") }

        let open = try SourceGuard(SourcePolicy())
        let (_, anyHost) = try open.authorize("http://images.example.com/a.jpg")
        #expect(!anyHost.allowsInternalNetworks)
    }

    @Test("A malformed address range is a configuration error naming it")
    func badRange() {
        var policy = SourcePolicy()
        policy.allowedAddressRanges = ["10.0.0.0/8", "10.0.0.0/99"]
        #expect {
            try SourceGuard(policy)
        } throws: { error in
            ((error as? SourceURL.Problem)?.message.contains("10.0.0.0/99")) == true
        }
    }
}
