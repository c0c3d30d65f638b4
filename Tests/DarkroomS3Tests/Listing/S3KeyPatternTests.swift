import DarkroomS3
import Testing

@Suite("s3:// prefixes and globs")
struct S3KeyPatternTests {
    @Test("A key ending in '/', an empty key or a wildcard makes a pattern; an object key does not")
    func patterns() {
        #expect(S3KeyPattern.isPattern("s3://uploads/2026/11/"))
        #expect(S3KeyPattern.isPattern("s3://uploads"))
        #expect(S3KeyPattern.isPattern("s3://minio@uploads/2026/*.heic"))
        #expect(S3KeyPattern.isPattern("S3://uploads/a?.jpg"))
        #expect(!S3KeyPattern.isPattern("s3://uploads/2026/11/a.jpg"))
        #expect(!S3KeyPattern.isPattern("https://example.com/a/"))
        #expect(!S3KeyPattern.isPattern("photos/*.jpg"))
    }

    @Test("Only the literal part before the first wildcard is listed")
    func listPrefix() throws {
        #expect(try S3KeyPattern(parsing: "s3://u/2026/11/*.heic").listPrefix == "2026/11/")
        #expect(try S3KeyPattern(parsing: "s3://u/2026/11/img-??.jpg").listPrefix == "2026/11/img-")
        #expect(try S3KeyPattern(parsing: "s3://u/2026/11/").listPrefix == "2026/11/")
        #expect(try S3KeyPattern(parsing: "s3://u").listPrefix == "")
        #expect(try S3KeyPattern(parsing: "s3://m@u/**/*.jpg").bucket == S3Bucket(endpoint: "m", name: "u"))
    }

    @Test("'*' and '?' stay within one segment; '**' crosses segments")
    func matching() throws {
        let glob = try S3KeyPattern(parsing: "s3://u/2026/11/*.heic")
        #expect(glob.matches("2026/11/a.heic"))
        #expect(glob.matches("2026/11/.heic"))
        #expect(!glob.matches("2026/11/sub/a.heic"))
        #expect(!glob.matches("2026/11/a.heic.jpg"))
        let question = try S3KeyPattern(parsing: "s3://u/a?c.jpg")
        #expect(question.matches("abc.jpg") && !question.matches("a/c.jpg") && !question.matches("ac.jpg"))
        let deep = try S3KeyPattern(parsing: "s3://u/in/**/*.jpg")
        #expect(deep.matches("in/a.jpg") && deep.matches("in/x/y/a.jpg"))
        #expect(!deep.matches("out/a.jpg") && !deep.matches("in/a.png"))
        let many = try S3KeyPattern(parsing: "s3://u/**/**/**/x*y*z")
        #expect(many.matches("a/b/c/d/e/f/x1y2z") && !many.matches(String(repeating: "a/", count: 40) + "xyyyyyyyy"))
    }

    @Test("A prefix matches everything under it but folder markers")
    func prefixMatching() throws {
        let prefix = try S3KeyPattern(parsing: "s3://u/2026/")
        #expect(prefix.matches("2026/a.jpg") && prefix.matches("2026/11/b.jpg"))
        #expect(!prefix.matches("2026/11/"))
    }

    @Test("Patterns with '..' segments are refused like object keys", arguments: ["s3://u/../*.jpg", "s3://u/a/./"])
    func refused(text: String) {
        #expect(throws: S3Error.self) { try S3KeyPattern(parsing: text) }
    }
}
