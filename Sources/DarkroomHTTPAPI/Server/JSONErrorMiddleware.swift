import Hummingbird

/// Answers what the router itself refuses — a path no endpoint has (404), a method a path does not
/// serve (405, with `Allow`), a body past the limit — with a JSON error body like every other
/// refusal, instead of Hummingbird's empty one.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound, .methodNotAllowed:
                if let methods = APIRoutes.methods(at: request.uri.path) {
                    let allowed = methods.map(\.rawValue).joined(separator: ", ")
                    var response = APIResponse.errors(
                        .methodNotAllowed,
                        [ErrorRecord(APIError(.methodNotAllowed, "\(request.method) is not served at \(request.uri.path); it serves \(allowed)"))])
                    response.headers[.allow] = allowed
                    return response
                }
                return APIResponse.errors(
                    .notFound, [ErrorRecord(APIError(.notFound, "no endpoint \(request.method) \(request.uri.path); see docs/http-api.md"))])
            default:
                return APIResponse.failure(error)
            }
        }
    }
}
