import DarkroomQueue
import Testing

@testable import DarkroomAPIKeys

@Suite("Grant targets: sources and outputs are read as UTF-8 bytes, as URL parsers and the file system read them")
struct GrantTargetTests {
    static func key(sources: [String], outputs: [String] = []) -> APIKey {
        APIKeyGrantsTests.key(sources: sources, outputs: outputs)
    }

    func permitted(_ key: APIKey, _ source: String) -> Bool {
        (try? key.permits(source: source)) != nil
    }

    /// The code and message `body` throws, nil when it throws nothing.
    func outcome(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? APIKeyError).map { "\($0.code) \($0.message)" } ?? "\(error)"
        }
    }

    @Test("A scheme is an ASCII letter, then letters, digits, '+', '-' or '.', before the first ':'")
    func schemes() {
        let cases: [(String, String?)] = [
            ("HTTPS://a.example/x", "https"), ("a+b.c-d:x", "a+b.c-d"), ("data:image/png", "data"), ("C:\\x", nil), ("1ab:x", nil),
            ("/srv/a:b", nil), ("\u{E9}t\u{E9}:x", nil), ("ab", nil), (":x", nil), ("ab\u{301}:x", nil),
        ]
        for (text, scheme) in cases { #expect(GrantTarget.scheme(of: text) == scheme, "\(text)") }
    }

    @Test("A combining mark after a '/' does not hide the '/': a '..' segment before it is still refused")
    func combiningMarks() {
        let key = Self.key(sources: ["/srv/uploads", "https://images.example.com/uploads/"])
        for source in ["/srv/uploads/../\u{301}etc/passwd", "https://images.example.com/uploads/../\u{301}x", "/srv/uploads/..\u{301}/../x"] {
            #expect(!permitted(key, source), "\(source)")
        }
        // The mark begins a name under the directory, as the file system sees it.
        #expect(permitted(key, "/srv/uploads/\u{301}x.jpg"))
        #expect(permitted(key, "https://images.example.com/uploads/\u{301}x.jpg"))
    }

    @Test("Paths are compared byte for byte: two normal forms of a name are two directories")
    func noNormalisation() {
        let key = Self.key(sources: ["/srv/caf\u{E9}"])
        #expect(permitted(key, "/srv/caf\u{E9}/a.jpg"))
        #expect(!permitted(key, "/srv/cafe\u{301}/a.jpg"))
    }

    @Test("A host is lower-cased by Unicode's rules, and only the default port is dropped")
    func hosts() {
        let key = Self.key(sources: ["https://b\u{FC}cher.example/"])
        #expect(permitted(key, "https://B\u{DC}CHER.EXAMPLE:443/x.jpg"))
        #expect(!permitted(key, "https://b\u{FC}cher.example:8443/x.jpg"))
        #expect(GrantTarget("https://:443/x").problem == "has no host")
        #expect(GrantTarget("http://a.example:80/x").authority == "a.example")
        #expect(GrantTarget("http://a.example:8080/x").authority == "a.example:8080")
    }

    @Test("Escapes are found in either case, and a query or fragment ends the path")
    func escapes() {
        for source in ["https://a.example/x%2Fy", "https://a.example/x%5cy", "https://a.example/%2E%2E/y"] {
            #expect(GrantTarget(source).path == nil, "\(source)")
        }
        #expect(GrantTarget("https://a.example/x%20y").path == "/x%20y")
        #expect(GrantTarget("https://a.example/x?y=/../z#w").path == "/x")
        #expect(GrantTarget("file:///srv/a%20b").problem == "has a %-escape in a file URL")
        #expect(GrantTarget("/srv/a\u{7F}").problem == "has a control character")
    }

    @Test("s3:// sources: the bucket with its alias is the authority, a pinned ETag is not part of it, and '?' and '#' are characters of the key")
    func objectStorage() {
        let key = Self.key(sources: ["s3://photos/in/", "s3://media@Originals/2026/"])
        for source in [
            "s3://photos/in/a.jpg", "s3://photos;etag=9b2c-3/in/a.jpg", "s3://photos/in/sub/x?y#z.jpg", "s3://media@Originals/2026/a.jpg",
            "s3://media@Originals;etag=abc/2026/11/a.jpg",
        ] {
            #expect(permitted(key, source), "\(source)")
        }
        for source in [
            "s3://photos/in?/x.jpg", "s3://photos/in#/x.jpg", "s3://photos/inx/a.jpg", "s3://photos;etag=1/other/a.jpg",
            "s3://media@originals/2026/a.jpg", "s3://originals/2026/a.jpg", "s3://photos/in/../secret.jpg", "s3://x@photos/in/a.jpg",
            "s3:///in/a.jpg",
        ] {
            #expect(!permitted(key, source), "\(source)")
        }
    }

    @Test("A request's parsed grants answer as the key does, job by job")
    func jobGrantCheck() {
        let key = Self.key(sources: ["https://images.example.com/uploads/", "/srv/in", "data:"], outputs: ["/srv/out"])
        let check = key.jobGrantCheck()
        let sources = [
            "https://images.example.com/uploads/a.jpg", "https://images.example.com/other/a.jpg", "/srv/in/a.png", "/srv/inX/a.png",
            "data:image/png;base64,AAAA", "acme://b/x",
        ]
        for source in sources {
            for output in [nil, "/srv/out/a", "/tmp"] {
                let job = Job(id: JobID(rawValue: "j1")!, batch: "b", source: source, chain: "blur(2)", output: output)
                let oneByOne = outcome {
                    try key.permits(scope: .submit)
                    try key.permits(source: job.source)
                    try key.permits(output: job.output)
                    try key.permits(priority: job.priority)
                }
                #expect(outcome { try check.permits(job: job) } == oneByOne, "\(source) \(output ?? "-")")
            }
        }
    }
}
