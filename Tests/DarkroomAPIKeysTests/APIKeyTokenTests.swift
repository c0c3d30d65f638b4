import Crypto
import DarkroomSystem
import Foundation
import Testing

@testable import DarkroomAPIKeys

@Suite("API key tokens: random, parsed strictly, hashed, and never printed")
struct APIKeyTokenTests {
    @Test("A new token is dk_ + 8 + _ + 32 base62 characters, and no two are alike")
    func shape() throws {
        var seen: Set<String> = []
        for _ in 0..<200 {
            let token = APIKeyToken.generate()
            let text = token.reveal()
            #expect(text.utf8.count == 44)
            #expect(text.hasPrefix(token.id + "_"))
            #expect(APIKeyToken.isKeyID(token.id))
            #expect(text.utf8.allSatisfy { APIKeyToken.alphabet.contains($0) || $0 == UInt8(ascii: "_") })
            #expect(seen.insert(text).inserted)
            let parsed = try #require(APIKeyToken(text))
            #expect(parsed.id == token.id)
            #expect(parsed.reveal() == text)
        }
    }

    @Test("Malformed tokens do not parse; a Bearer header does")
    func parsing() {
        let text = APIKeyToken.generate().reveal()
        for bad in [
            "", text + "A", String(text.dropLast()), "xk" + text.dropFirst(2), text.replacingOccurrences(of: "_", with: "-"),
            String(text.dropLast()) + "!", String(text.dropLast()) + "é",
        ] {
            #expect(APIKeyToken(bad) == nil, "\(bad)")
        }
        #expect(APIKeyToken(authorization: "Bearer \(text)")?.reveal() == text)
        #expect(APIKeyToken(authorization: "bearer  \(text)")?.reveal() == text)
        #expect(APIKeyToken(authorization: "Basic \(text)") == nil)
        #expect(APIKeyToken(authorization: text) == nil)
    }

    @Test("The digest is the hex SHA-256 of the token and matches only it")
    func digest() throws {
        let token = APIKeyToken.generate()
        let expected = HexDigits.lowercase(SHA256.hash(data: Array(token.reveal().utf8)))
        #expect(token.digest == expected)
        #expect(token.matches(digest: expected))
        #expect(!token.matches(digest: APIKeyToken.generate().digest))
        #expect(!token.matches(digest: String(expected.dropLast())))
        #expect(!token.matches(digest: ""))
    }

    @Test("Printing a token shows its id only")
    func redacted() {
        let token = APIKeyToken.generate()
        let secret = String(token.reveal().dropFirst(12))
        #expect("\(token)" == token.id + "_…")
        #expect(!String(reflecting: token).contains(secret))
        #expect(!"\(CreatedAPIKey(key: APIKeyGrantsTests.key(), token: token))".contains(secret))
    }
}
