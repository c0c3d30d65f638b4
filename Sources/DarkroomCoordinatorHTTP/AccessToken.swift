import Crypto

/// The bearer token that guards every endpoint but `/healthz`.
///
/// Only digests are kept and compared: both sides are hashed with SHA-256 and the 32-byte digests
/// compared without an early exit, so neither the token's length nor the position of the first
/// wrong byte shows in the response time. The dashboard's session cookie never carries the token
/// nor its digest: it carries an expiry and a MAC over it (`DashboardSession`), keyed from the
/// token's digest.
public struct AccessToken: Sendable {
    private let digest: [UInt8]
    /// The key of the dashboard session cookies' MAC: a digest of the token's digest under a label
    /// of its own, so the key is neither the token nor the digest `matches` compares.
    let sessionKey: [UInt8]

    /// The shortest token accepted: anything shorter is guessable.
    public static let minimumLength = 16

    /// A token from its text; surrounding whitespace (a file's trailing newline) is removed.
    public init(_ text: String) throws(CoordinatorHTTPError) {
        let token = text.trimmingWhitespace()
        guard token.utf8.count >= Self.minimumLength else {
            throw CoordinatorHTTPError(
                .invalidToken,
                "the HTTP token must be at least \(Self.minimumLength) characters (got \(token.utf8.count)); generate one with `openssl rand -hex 32`")
        }
        digest = Array(SHA256.hash(data: Array(token.utf8)))
        sessionKey = Array(SHA256.hash(data: Array("darkroom-dashboard-session-key\u{0}".utf8) + digest))
    }

    /// Whether `candidate` is the token, in time independent of where they differ.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        Self.equal(digest, Array(SHA256.hash(data: Array(candidate.utf8))))
    }

    /// Equal-length comparison without an early exit; a length difference fails after the loop.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        for index in 0..<min(lhs.count, rhs.count) { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
