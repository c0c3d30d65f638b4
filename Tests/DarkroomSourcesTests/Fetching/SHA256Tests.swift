import Testing

@testable import DarkroomSources

@Suite("SHA-256 (FIPS 180-4)")
struct SHA256Tests {
    @Test("the empty message hashes to the FIPS value")
    func emptyMessage() {
        #expect(SHA256Hasher.hexDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("'abc' hashes to the FIPS 180-4 one-block example")
    func abc() {
        #expect(
            SHA256Hasher.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("the 448-bit message hashes to the FIPS 180-4 two-block example")
    func twoBlocks() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            SHA256Hasher.hexDigest(of: message)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("the 896-bit message hashes to the NIST example value")
    func longerMessage() {
        let message = Array(
            ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
        #expect(
            SHA256Hasher.hexDigest(of: message)
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("one million 'a' characters hash to the FIPS value")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            SHA256Hasher.hexDigest(of: message)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "messages around the padding boundaries match Python's hashlib",
        arguments: [
            (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
            (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
            (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
            (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
            (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
            (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
            (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
            (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
        ])
    func paddingBoundaries(length: Int, expected: String) {
        #expect(SHA256Hasher.hexDigest(of: SHA256TestData.pattern(length)) == expected)
    }

    @Test("feeding a message in uneven pieces gives the one-shot digest")
    func incremental() {
        let message = SHA256TestData.pattern(1000)
        var hasher = SHA256Hasher()
        var offset = 0
        for size in [1, 62, 3, 64, 65, 0, 127, 200] + Array(repeating: 50, count: 20) where offset < message.count {
            let end = min(message.count, offset + size)
            hasher.update(Array(message[offset..<end]))
            offset = end
        }
        hasher.update(Array(message[offset...]))
        #expect(SHA256Hasher.hex(hasher.finalize()) == SHA256Hasher.hexDigest(of: message))
        #expect(SHA256Hasher.digest(of: message).count == 32)
    }
}

enum SHA256TestData {
    /// Bytes `(i * 7 + 3) & 0xff`, the pattern the expected values were computed from with
    /// `hashlib.sha256(bytes((i*7+3)&0xff for i in range(n)))`.
    static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
    }
}
