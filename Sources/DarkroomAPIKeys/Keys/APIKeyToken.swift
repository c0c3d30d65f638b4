import Crypto
import DarkroomSystem

/// The secret of an API key: `dk_` + 8 letters and digits (the key's public id) + `_` + 32
/// letters and digits drawn from the system's CSPRNG, e.g. `dk_Q7fT2mZa_…` (44 characters).
///
/// It exists in full once, when the key is created (`CreatedAPIKey.token`); the store keeps only
/// `digest`. Its `description` shows the id alone, so a token that ends up in a log line or an
/// interpolated string reveals nothing; `reveal()` is the one way to the text. (Not `Equatable`:
/// tokens are compared only through `matches(digest:)`, in constant time.)
public struct APIKeyToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's public id, the token's first 11 characters.
    public let id: String
    private let text: String

    /// The letters and digits ids and secrets are drawn from (base62).
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let idPrefix = "dk_"
    static let idRandomLength = 8
    static let secretLength = 32
    /// `dk_` + 8 + `_` + 32.
    static let length = idPrefix.utf8.count + idRandomLength + 1 + secretLength

    /// A new token for a new key. `SystemRandomNumberGenerator` reads the kernel's CSPRNG
    /// (`getrandom`), and `Int.random(in:)` draws without modulo bias, so each of the 32 secret
    /// characters carries log2(62) ≈ 5.95 bits: about 190 bits a token.
    static func generate() -> APIKeyToken {
        var random = SystemRandomNumberGenerator()
        let id = idPrefix + randomText(idRandomLength, using: &random)
        let secret = randomText(secretLength, using: &random)
        return APIKeyToken(id: id, text: id + "_" + secret)
    }

    /// `count` characters of `alphabet`, each drawn independently from `random`.
    static func randomText(_ count: Int, using random: inout SystemRandomNumberGenerator) -> String {
        String(decoding: (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }, as: UTF8.self)
    }

    private init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// Parses a presented token; nil for anything not of the token's shape (checked before any
    /// store is asked, so garbage costs no Redis round trip).
    public init?(_ presented: some StringProtocol) {
        let bytes = Array(presented.utf8)
        let idLength = Self.idPrefix.utf8.count + Self.idRandomLength
        guard bytes.count == Self.length, bytes.starts(with: Self.idPrefix.utf8), bytes[idLength] == UInt8(ascii: "_"),
            bytes[Self.idPrefix.utf8.count..<idLength].allSatisfy(Self.alphabet.contains),
            bytes[(idLength + 1)...].allSatisfy(Self.alphabet.contains)
        else { return nil }
        self.init(id: String(decoding: bytes[..<idLength], as: UTF8.self), text: String(decoding: bytes, as: UTF8.self))
    }

    /// The token from an HTTP `Authorization` header's value, `Bearer <token>` (the scheme's case
    /// ignored), or nil.
    public init?(authorization: some StringProtocol) {
        let parts = authorization.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        self.init(parts[1])
    }

    /// The token's text. Print it only where the user asked for it, once: `api-key create`.
    public func reveal() -> String { text }

    /// The lower-case hex SHA-256 of the token: what the store keeps and compares.
    ///
    /// A plain, fast, unsalted hash is enough here, unlike for passwords: the token carries about
    /// 190 random bits, so neither a dictionary nor a precomputed table nor brute force can find
    /// it from its digest, and salts and slow KDFs exist to protect low-entropy secrets. A fast
    /// hash keeps authenticating cheap on every request.
    public var digest: String { HexDigits.lowercase(SHA256.hash(data: Array(text.utf8))) }

    /// Whether `stored` (a digest the store kept) is this token's digest, in time that does not
    /// depend on where they differ: every byte is compared, and differences are OR-ed together.
    func matches(digest stored: String) -> Bool {
        let lhs = Array(digest.utf8)
        let rhs = Array(stored.utf8)
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<min(lhs.count, rhs.count) { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// The id and an ellipsis: never the secret.
    public var description: String { id + "_…" }
    public var debugDescription: String { "APIKeyToken(\(description))" }
    /// The id only, so `dump` and debuggers do not show the secret either.
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }

    /// Whether `text` is a key id's shape (`dk_` + 8 letters and digits).
    public static func isKeyID(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == idPrefix.utf8.count + idRandomLength && bytes.starts(with: idPrefix.utf8)
            && bytes.dropFirst(idPrefix.utf8.count).allSatisfy(alphabet.contains)
    }
}
