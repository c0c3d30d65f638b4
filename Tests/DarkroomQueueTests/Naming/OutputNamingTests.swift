import DarkroomQueue
import Testing

@Suite("Output naming: the values of {stem}, {id} and {batch}")
struct OutputNamingTests {
    @Test(
        "Output base names come from paths and URLs; data: URIs and nameless URLs have none",
        arguments: [
            ("photos/cat.jpg", "cat"),
            ("/abs/dir/cat.large.png", "cat.large"),
            ("https://img.example.com/a/my%20dog.webp?w=10#x", "my dog"),
            ("http://example.com/", nil),
            ("file:///srv/in/bird.gif", "bird"),
            ("data:image/png;base64,AAAA", nil),
            ("/srv/in/.hidden", nil),
            ("https://example.com/a/%2e%2e", nil),
            // A malformed escape is kept as written rather than guessed at.
            ("https://example.com/a/100%.png", "100%"),
            ("https://example.com/a/%e2%82%ac.png", "€"),
        ] as [(String, String?)])
    func baseNames(source: String, expected: String?) {
        #expect(OutputNaming.baseName(ofSource: source) == expected)
    }

    @Test("A job id becomes a safe file name: no slashes, not hidden")
    func jobIDFileNames() throws {
        #expect(OutputNaming.fileName(forJobID: try #require(JobID(rawValue: "photos/2024/cat"))) == "photos_2024_cat")
        #expect(OutputNaming.fileName(forJobID: try #require(JobID(rawValue: "../up"))) == "_._up")
        #expect(OutputNaming.fileName(forJobID: try #require(JobID(rawValue: ".."))) == "_.")
    }

    @Test("A batch becomes a file name by the id's rule")
    func batchFileNames() {
        #expect(OutputNaming.fileName(forBatch: "nightly/2026-11-27") == "nightly_2026-11-27")
        #expect(OutputNaming.fileName(forBatch: ".hidden") == "_hidden")
    }

    @Test("The chain digest is FNV-1a 64 of the canonical text, its first 12 hex digits, fixed for good")
    func chainDigest() {
        // Published FNV-1a 64 test vectors: "" → cbf29ce484222325, "a" → af63dc4c8601ec8c,
        // "foobar" → 85944171f73967e8.
        #expect(ChainDigest.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(ChainDigest.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ChainDigest.of("foobar") == "85944171f739")
        #expect(ChainDigest.of("resize(400x300, mode: fit)").count == 12)
        #expect(ChainDigest.of("blur(2)") != ChainDigest.of("blur(3)"))
    }
}
