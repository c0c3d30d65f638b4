import Crypto
import Foundation
import Testing

@testable import DarkroomCoordinatorHTTP

/// The dashboard's login cookie: an expiry and a MAC over it, keyed from the token's digest.
@Suite("Dashboard session cookies")
struct DashboardSessionTests {
    static let token = "session-token-0123456789abcdef"
    static let now: Int64 = 1_800_000_000

    static func session(_ text: String = token, lifetime: Duration = .seconds(3600)) throws -> DashboardSession {
        DashboardSession(token: try AccessToken(text), lifetime: lifetime)
    }

    @Test("Given a fresh cookie, then it is valid until its expiry and expired from then on")
    func expiry() throws {
        let session = try Self.session()
        let value = session.cookieValue(now: Self.now)
        #expect(value.hasPrefix("v1.\(Self.now + 3600)."))
        #expect(session.verify(value, now: Self.now) == .valid)
        #expect(session.verify(value, now: Self.now + 3599) == .valid)
        #expect(session.verify(value, now: Self.now + 3600) == .expired)
        #expect(session.verify(value, now: Self.now + 86400) == .expired)
    }

    @Test("Given a cookie whose expiry or MAC was changed, or another token's, then it is invalid")
    func tampering() throws {
        let session = try Self.session()
        let value = session.cookieValue(now: Self.now)
        let parts = value.split(separator: ".").map(String.init)
        #expect(session.verify("v1.\(Self.now + 7200).\(parts[2])", now: Self.now) == .invalid, "a later expiry under the old MAC")
        let flipped = String(parts[2].dropLast()) + (parts[2].hasSuffix("0") ? "1" : "0")
        #expect(session.verify("v1.\(parts[1]).\(flipped)", now: Self.now) == .invalid, "one digit of the MAC changed")
        #expect(session.verify(try Self.session("another-token-0123456789abcdef").cookieValue(now: Self.now), now: Self.now) == .invalid)
        for garbage in ["", "v1", "v1..", "v2.\(parts[1]).\(parts[2])", "v1.abc.\(parts[2])", "v1.\(parts[1]).\(parts[2]).x"] {
            #expect(session.verify(garbage, now: Self.now) == .invalid, "\(garbage)")
        }
    }

    @Test("Given the lifetime shortened after a cookie was issued, then an expiry beyond the new lifetime counts as expired")
    func shortenedLifetime() throws {
        let issued = try Self.session(lifetime: .seconds(86400)).cookieValue(now: Self.now)
        #expect(try Self.session(lifetime: .seconds(3600)).verify(issued, now: Self.now) == .expired)
    }

    @Test("Given a cookie, then it holds neither the token nor the token's digest")
    func holdsNoSecret() throws {
        let value = try Self.session().cookieValue(now: Self.now)
        let digest = SHA256.hash(data: Array(Self.token.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(!value.contains(Self.token))
        #expect(!value.contains(digest))
    }
}
