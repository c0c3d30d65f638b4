import DarkroomCore
import DarkroomSystem
import Testing

@testable import DarkroomSources

@Suite("data: URI provider")
struct DataURIProviderTests {
    @Test("a base64 PNG signature with a media type decodes to its bytes, keyed by media type and SHA-256")
    func base64WithMediaType() async throws {
        let fetched = try await DataURITestSupport.fetch("data:image/png;base64,iVBORw0KGgo=")
        #expect(fetched.bytes == DataURITestSupport.pngSignature)
        #expect(fetched.contentType == "image/png")
        #expect(
            fetched.cacheKey
                == "data:image/png;sha256=4c4b6a3be1314ab86138bef4314dde022e600960d8689a2c8f8631802d20dab6")
    }

    @Test("without a media type the content type is unknown and the key has an empty type")
    func base64WithoutMediaType() async throws {
        let fetched = try await DataURITestSupport.fetch("data:;base64,SGVsbG8=")
        #expect(fetched.bytes == Array("Hello".utf8))
        #expect(fetched.contentType == nil)
        #expect(fetched.cacheKey == "data:;sha256=185f8db32271fe25f561a6fc938b2e264306ec304eda518007d1764826381969")
    }

    @Test("media type and base64 marker are case-insensitive and parameters are accepted")
    func caseAndParameters() async throws {
        let fetched = try await DataURITestSupport.fetch("DATA:Image/PNG;name=sig.png;BASE64,iVBORw0KGgo=")
        #expect(fetched.bytes == DataURITestSupport.pngSignature)
        #expect(fetched.contentType == "image/png")
    }

    @Test("line breaks, spaces and missing padding are tolerated and give the same key as the canonical form")
    func whitespaceAndMissingPadding() async throws {
        let canonical = try await DataURITestSupport.fetch("data:text/plain;base64,SGVsbG8gV29ybGQ=")
        let wrapped = try await DataURITestSupport.fetch("data:text/plain;base64,SGVs\r\nbG8g V29y\tbGQ")
        #expect(wrapped.bytes == Array("Hello World".utf8))
        #expect(wrapped.cacheKey == canonical.cacheKey)
    }

    @Test("a percent-encoded base64 payload is unescaped before decoding")
    func percentEncodedBase64() async throws {
        let fetched = try await DataURITestSupport.fetch("data:;base64,SGVsbG8%3D")
        #expect(fetched.bytes == Array("Hello".utf8))
    }

    @Test("a percent-encoded payload decodes escapes, including NUL and high bytes")
    func percentEncodedPayload() async throws {
        let text = try await DataURITestSupport.fetch("data:text/plain,Hello%2C%20World")
        #expect(text.bytes == Array("Hello, World".utf8))
        #expect(text.contentType == "text/plain")
        let binary = try await DataURITestSupport.fetch("data:,A%00B%ff%FE")
        #expect(binary.bytes == [0x41, 0x00, 0x42, 0xff, 0xfe])
        #expect(binary.contentType == nil)
    }

    @Test("an empty payload gives zero bytes, base64 or not", arguments: ["data:,", "data:image/png;base64,"])
    func emptyPayload(uri: String) async throws {
        let fetched = try await DataURITestSupport.fetch(uri)
        #expect(fetched.bytes.isEmpty)
        #expect(fetched.cacheKey.hasSuffix(";sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    }

    @Test(
        "malformed base64 is invalid with a message naming the problem and its offset",
        arguments: [
            ("data:;base64,SGV$bG8=", "'$' (0x24) at payload offset 3"),
            ("data:;base64,SGVs-G8=", "base64url"),
            ("data:;base64,SG=VsbG8", "'=' at payload offset 2 is followed by more data"),
            ("data:;base64,SGVsb", "one more than a multiple of 4"),
            ("data:;base64,SGVsbG8===", "at most two '='"),
            ("data:;base64,SGVsbA=", "padding must bring the length to a multiple of 4"),
            ("data:;base64,SGVs%zzbG8=", "'%' at payload offset 4"),
        ])
    func malformedBase64(uri: String, expected: String) async throws {
        let error = try await DataURITestSupport.failure(uri)
        #expect(error.code == .invalid)
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.isTransient)
        #expect(error.source == SourceReference(uri).description)
    }

    @Test(
        "a malformed header or a missing comma is invalid with a precise message",
        arguments: [
            ("data:image/png;base64", "needs a ','"),
            ("data:image;base64,AAAA", "media type 'image' is not of the form type/subtype"),
            ("data:base64,AAAA", "did you mean ';base64'?"),
            ("data:image/png;base64;name=x,AAAA", "';base64' must be the last parameter"),
            ("data:image/png;;base64,AAAA", "an empty parameter"),
            ("data:image/png;charset,AAAA", "parameter 'charset' in the media type is not of the form attribute=value"),
            ("data:,abc%zz", "'%' at payload offset 3 is not followed by two hexadecimal digits"),
            ("data:,abc%4", "'%' at payload offset 3"),
        ])
    func malformedHeader(uri: String, expected: String) async throws {
        let error = try await DataURITestSupport.failure(uri)
        #expect(error.code == .invalid)
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test(
        "a payload of exactly the limit is accepted and one byte more is too large",
        arguments: [(999, true), (1000, true), (1001, false)])
    func exactLimit(size: Int, accepted: Bool) async throws {
        let payload = [UInt8](repeating: 0x5a, count: size)
        let uri = "data:application/octet-stream;base64," + DataURITestSupport.base64(payload)
        let percent = "data:," + String(repeating: "%5A", count: size)
        var policy = SourcePolicy()
        policy.maxBytes = 1000
        for source in [uri, percent] {
            if accepted {
                let fetched = try await DataURITestSupport.fetch(source, policy: policy)
                #expect(fetched.bytes == payload)
            } else {
                let error = try await DataURITestSupport.failure(source, policy: policy)
                #expect(error.code == .tooLarge)
                #expect(error.message.contains("1000"))
            }
        }
    }

    @Test("a huge base64 payload over the limit is refused before decoding: a bad byte at its end is never reached")
    func hugeBase64RefusedBeforeDecoding() async throws {
        var policy = SourcePolicy()
        policy.maxBytes = 1000
        let uri = "data:image/png;base64," + String(repeating: "AAAA", count: 500_000) + "!"
        let error = try await DataURITestSupport.failure(uri, policy: policy)
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("refused before decoding"))
        // The source in messages is shortened, not the whole 2 MB URI.
        #expect(error.source.hasPrefix("data:image/png;base64,…("))
        #expect(error.source.utf8.count < 100)
    }

    @Test("a huge percent-encoded payload is refused from its length alone")
    func hugePercentPayloadRefused() async throws {
        var policy = SourcePolicy()
        policy.maxBytes = 1000
        let error = try await DataURITestSupport.failure("data:," + String(repeating: "%zz", count: 100_000), policy: policy)
        #expect(error.code == .tooLarge)
    }

    @Test("a payload large enough to be decoded on the pool gives the same bytes and key as inline decoding")
    func decodedOnPool() async throws {
        let payload = SHA256TestData.pattern(300_000)
        let uri = "data:application/octet-stream;base64," + DataURITestSupport.base64(payload)
        let pooled = try await DataURIProvider(pool: DataURITestSupport.pool).fetch(SourceReference(uri), policy: SourcePolicy())
        let inline = try await DataURITestSupport.fetch(uri)
        #expect(pooled.bytes == payload)
        #expect(pooled.cacheKey == inline.cacheKey)
        #expect(pooled.cacheKey == "data:application/octet-stream;sha256=" + SHA256Hasher.hexDigest(of: payload))
    }

    @Test("a URI without a comma is shortened in messages after 64 bytes")
    func noCommaShortened() async throws {
        let uri = "data:" + String(repeating: "x", count: 10_000)
        let error = try await DataURITestSupport.failure(uri)
        #expect(error.code == .invalid)
        #expect(error.source == "data:" + String(repeating: "x", count: 59) + "…(10005 bytes)")
    }

    @Test("the key is unknown before fetching, so coalescing uses the URI text")
    func noKeyBeforeFetching() throws {
        #expect(try DataURIProvider().cacheKey(for: SourceReference("data:,x"), policy: SourcePolicy()) == nil)
    }
}

enum DataURITestSupport {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
    static let pool = BlockingWorkPool(threadCount: 2)

    static func fetch(_ uri: String, policy: SourcePolicy = SourcePolicy()) async throws -> FetchedSource {
        try await DataURIProvider().fetch(SourceReference(uri), policy: policy)
    }

    /// The error `uri` fails with (the test fails if it succeeds).
    static func failure(_ uri: String, policy: SourcePolicy = SourcePolicy()) async throws -> SourceError {
        let result: Result<FetchedSource, SourceError>
        do throws(SourceError) {
            result = .success(try await DataURIProvider().fetch(SourceReference(uri), policy: policy))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .failure(let error):
            return error
        case .success(let fetched):
            Issue.record("expected \(uri.prefix(60)) to fail, got \(fetched.bytes.count) bytes")
            throw SourceError(.invalid, source: uri, "unexpected success")
        }
    }

    /// Standard padded base64, written here independently of the decoder under test.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << UInt32(16 - 8 * offset) }
            for position in 0..<4 {
                if position <= chunk.count {
                    out.append(alphabet[Int((value >> UInt32(18 - 6 * position)) & 0x3f)])
                } else {
                    out.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
