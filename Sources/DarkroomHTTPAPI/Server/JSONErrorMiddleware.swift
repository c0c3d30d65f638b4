import Hummingbird

/// Answers what the router itself refuses — a path no endpoint has, a body past the limit — with
/// a JSON error body like every other refusal, instead of Hummingbird's empty one.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound, .methodNotAllowed:
                return APIResponse.errors(
                    .notFound, [ErrorRecord(APIError(.notFound, "no endpoint \(request.method) \(request.uri.path); see docs/http-api.md"))])
            default:
                return APIResponse.failure(error)
            }
        }
    }
}
