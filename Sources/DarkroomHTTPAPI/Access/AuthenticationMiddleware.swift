import DarkroomAPIKeys
import HTTPTypes
import Hummingbird

/// Authenticates every `/v1` request but `GET /v1/openapi.json` by its `Authorization: Bearer`
/// token and takes a token from the key's rate-limit bucket, before any handler reads the body.
/// The key goes into the context (`APIRequestContext.key`) for the routes' scope and ownership
/// checks.
///
/// A missing, malformed, unknown or revoked token answers 401 `apikey.unauthenticated` with
/// `WWW-Authenticate: Bearer`; an empty bucket, 429 `apikey.rate-limited` with `Retry-After`.
/// The token is never logged, nor put in an answer: errors name the key by its id at most.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let access: APIAccess

    /// The one route anyone may read: the API's description says nothing about the fleet.
    static func isPublic(_ request: Request) -> Bool {
        request.method == .get && request.uri.path == "/v1/openapi.json"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/") || request.uri.path == "/v1", !Self.isPublic(request) else {
            return try await next(request, context)
        }
        var context = context
        do {
            let key = try await access.keys.requireKey(authorization: request.headers[.authorization])
            try await access.limiter.admit(key)
            context.key = key
        } catch {
            return APIResponse.failure(error)
        }
        return try await next(request, context)
    }
}
