import Crypto
import DarkroomSystem

/// The dashboard's login session: the value of the `darkroom_session` cookie that `/?token=…`
/// sets, `v1.EXPIRY.MAC` — the expiry in Unix seconds, and HMAC-SHA256 over the version and the
/// expiry keyed from the token's digest (`AccessToken.sessionKey`), in lowercase hexadecimal.
///
/// Why a MAC and not a random id kept server-side: the coordinator keeps no session table (a
/// fail-over to another coordinator with the same token keeps the browser logged in), and the
/// cookie proves only that the holder once presented the token — it is not the token, nor a
/// digest that would let anyone compute one. Changing the token ends every session.
///
/// The MAC is compared in constant time; an expiry further away than the configured lifetime
/// (a cookie issued before the lifetime was shortened) counts as expired.
public struct DashboardSession: Sendable {
    /// The name of the cookie.
    public static let cookieName = "darkroom_session"
    /// The default life of a session: a working day.
    public static let defaultLifetime: Duration = .seconds(12 * 3600)

    let token: AccessToken
    let lifetime: Duration

    /// What a cookie value proves.
    enum Verdict: Equatable {
        case valid
        case expired
        /// Not a value this token's sessions have: malformed, forged, or from another token.
        case invalid
    }

    /// The cookie value of a session that starts at `now` (Unix seconds).
    func cookieValue(now: Int64) -> String {
        let expiry = now + lifetime.components.seconds
        return "v1.\(expiry).\(mac(expiry: expiry))"
    }

    /// Checks `value` at `now` (Unix seconds).
    func verify(_ value: some StringProtocol, now: Int64) -> Verdict {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", parts[1].utf8.count <= 19, let expiry = Int64(parts[1]) else { return .invalid }
        guard AccessToken.equal(Array(mac(expiry: expiry).utf8), Array(parts[2].utf8)) else { return .invalid }
        return expiry > now && expiry <= now + lifetime.components.seconds ? .valid : .expired
    }

    private func mac(expiry: Int64) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Array("darkroom-dashboard-session\u{0}v1\u{0}\(expiry)".utf8), using: SymmetricKey(data: token.sessionKey))
        return HexDigits.lowercase(code)
    }
}
