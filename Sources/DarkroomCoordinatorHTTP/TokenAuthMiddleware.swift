import DarkroomAPIKeys
import DarkroomHTTPAPI
import Foundation
import Hummingbird

/// Requires the access token on every request but `/healthz`: `Authorization: Bearer TOKEN`, or
/// the `darkroom_session` cookie that `GET /?token=TOKEN` sets (an HttpOnly, SameSite=Strict
/// cookie holding an expiring session, `DashboardSession`, never the token) before redirecting to
/// `/` without the token in the address. With no token configured (a loopback bind, or
/// `--insecure-http`) everything is open.
///
/// An authenticated request acts as `APIKey.dashboardSession` (`admin`) on the job API's routes
/// the server mounts under `/v1`. A state-changing request (anything but GET, HEAD, OPTIONS) not
/// made with the bearer token — made with the cookie, or to a server without a token — must carry
/// an `Origin` naming this server (`CrossSiteGuard`), or it is refused with 403.
struct TokenAuthMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    static var cookieName: String { DashboardSession.cookieName }

    let token: AccessToken?
    let sessionLifetime: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path != "/healthz" else { return try await next(request, context) }
        var context = context
        context.key = APIKey.dashboardSession()
        guard let token else {
            // No token: anyone who reaches the port may act, but a page of another site may not
            // make their browser do it.
            if let refusal = CrossSiteGuard.refusal(request) { return refusal }
            return try await next(request, context)
        }
        let session = DashboardSession(token: token, lifetime: sessionLifetime)
        if request.uri.path == "/", let offered = request.uri.queryParameters["token"] {
            guard token.matches(offered) else { return Self.unauthorized("the token in the address is wrong") }
            var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
            response.setCookie(
                Cookie(
                    name: Self.cookieName, value: session.cookieValue(now: Self.now()), maxAge: Int(sessionLifetime.components.seconds), path: "/",
                    httpOnly: true, sameSite: .strict))
            return response
        }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "), token.matches(header.dropFirst(7)) {
            return try await next(request, context)
        }
        if let cookie = request.cookies[Self.cookieName] {
            switch session.verify(cookie.value, now: Self.now()) {
            case .valid:
                if let refusal = CrossSiteGuard.refusal(request) { return refusal }
                return try await next(request, context)
            case .expired:
                return Self.unauthorized("the dashboard session expired; log in again: open /?token=TOKEN")
            case .invalid:
                break
            }
        }
        return Self.unauthorized("send Authorization: Bearer TOKEN, or open /?token=TOKEN in a browser")
    }

    /// Unix seconds now.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    static func unauthorized(_ reason: String) -> Response {
        Response(
            status: .unauthorized,
            headers: [.wwwAuthenticate: "Bearer realm=\"darkroom\"", .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "401 Unauthorized: \(reason)\n")))
    }
}
