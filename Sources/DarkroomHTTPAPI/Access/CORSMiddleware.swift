import HTTPTypes
import Hummingbird

/// Cross-origin access for browsers, off unless `APIConfiguration.corsOrigins` names origins
/// (`darkroom api --cors-origin`).
///
/// A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from a listed origin
/// answers 204 with the methods and headers the API takes; from any other origin, 403
/// `api.origin-not-allowed`. Every other answer to a listed origin carries
/// `Access-Control-Allow-Origin` and exposes the headers a client reads. Credentials are the
/// bearer token the page sends itself: no cookies, so no `Access-Control-Allow-Credentials`.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let origins: Set<String>

    static var allowedMethods: String { "GET, POST, DELETE, OPTIONS" }
    static var allowedHeaders: String { "Authorization, Content-Type, Idempotency-Key, If-None-Match" }
    static var exposedHeaders: String { "ETag, Retry-After, Idempotent-Replayed, WWW-Authenticate" }
    /// How long a browser may keep a preflight's answer.
    static var maxAge: String { "600" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = origins.contains(origin)
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            guard allowed else {
                var refused = APIResponse.failure(
                    APIError(.originNotAllowed, "the origin is not allowed to call this API; start it with --cors-origin for that origin"))
                refused.headers[.vary] = "Origin"
                return refused
            }
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin, .accessControlAllowMethods: Self.allowedMethods,
                    .accessControlAllowHeaders: Self.allowedHeaders, .accessControlMaxAge: Self.maxAge, .vary: "Origin",
                ])
        }
        var response = try await next(request, context)
        response.headers[.vary] = "Origin"
        if allowed {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        }
        return response
    }
}
