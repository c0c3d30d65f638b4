import Hummingbird

/// Requires the access token on every request but `/healthz`: `Authorization: Bearer TOKEN`, or
/// the `darkroom_session` cookie that `GET /?token=TOKEN` sets (an HttpOnly, SameSite=Strict
/// cookie holding a digest of the token) before redirecting to `/` without the token in the
/// address. With no token configured (a loopback bind, or `--insecure-http`) everything is open.
struct TokenAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    static var cookieName: String { "darkroom_session" }

    let token: AccessToken?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token, request.uri.path != "/healthz" else { return try await next(request, context) }
        if request.uri.path == "/", let offered = request.uri.queryParameters["token"] {
            guard token.matches(offered) else { return Self.unauthorized("the token in the address is wrong") }
            var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
            response.setCookie(Cookie(name: Self.cookieName, value: token.cookieValue, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "), token.matches(header.dropFirst(7)) {
            return try await next(request, context)
        }
        if let cookie = request.cookies[Self.cookieName], token.matchesCookie(cookie.value) {
            return try await next(request, context)
        }
        return Self.unauthorized("send Authorization: Bearer TOKEN, or open /?token=TOKEN in a browser")
    }

    static func unauthorized(_ reason: String) -> Response {
        Response(
            status: .unauthorized,
            headers: [.wwwAuthenticate: "Bearer realm=\"darkroom\"", .contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "401 Unauthorized: \(reason)\n")))
    }
}
