import Testing

@testable import DarkroomClient

@Suite("Paths are made absolute for the workers; URLs stay as typed")
struct PathResolverTests {
    @Test("Relative paths become absolute and normalised; URLs and data: URIs stay as typed")
    func paths() {
        #expect(PathResolver.source("photos/./cat.jpg", from: "/home/ann") == "/home/ann/photos/cat.jpg")
        #expect(PathResolver.source("../x//y.jpg", from: "/home/ann") == "/home/x/y.jpg")
        #expect(PathResolver.source("/srv/a.jpg", from: "/home/ann") == "/srv/a.jpg")
        #expect(PathResolver.source("https://h/a.jpg?w=1", from: "/x") == "https://h/a.jpg?w=1")
        #expect(PathResolver.source("data:image/png;base64,AAAA", from: "/x") == "data:image/png;base64,AAAA")
        #expect(PathResolver.source("file:///srv/a.jpg", from: "/x") == "file:///srv/a.jpg")
        #expect(PathResolver.source("a:b.jpg", from: "/x") == "/x/a:b.jpg")
        #expect(PathResolver.absolute("../../..", from: "/a") == "/")
    }

    /// The definition `isURL` had before it read bytes: the oracle for the one it has.
    static func referenceIsURL(_ text: String) -> Bool {
        if text.lowercased().hasPrefix("data:") { return true }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    @Test("Given schemes in any case, odd characters and non-ASCII text, then isURL answers as the Character-based definition does")
    func isURLAgreesWithCharacterDefinition() {
        let cases = [
            "https://h/a.jpg", "HTTP://h", "s3://b/k", "git+ssh://x", "a.b-c+d://x", "1http://x", "://x", "h ttp://x",
            "data:,x", "DATA:image/png", "Data:", "data", "dat:x", "file:///srv/a.jpg", "a:b.jpg", "a:/b", "a:", ":",
            "", "/srv/a.jpg", "é://x", "hé://x", "h\u{301}://x", "x:\u{301}//y", "ｈttp://x", "http:／／x", "\u{1F600}://x",
        ]
        for text in cases {
            #expect(PathResolver.isURL(text) == Self.referenceIsURL(text), "\(text)")
        }
        // And on random text over an alphabet that reaches every branch.
        let alphabet: [String] = ["a", "D", "A", "t", "T", ":", "/", "1", "+", "-", ".", " ", "é", "\u{301}", "Ｄ", "x"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            #expect(PathResolver.isURL(text) == Self.referenceIsURL(text), "\(text)")
        }
    }
}
