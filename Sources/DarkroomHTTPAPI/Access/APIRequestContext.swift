import DarkroomAPIKeys
import Hummingbird

/// The job API's request context: Hummingbird's core storage and the API key the request
/// authenticated with (`AuthenticationMiddleware` sets it before any `/v1` handler runs).
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's key; nil only for the routes that need none (`GET /v1/openapi.json`).
    public var key: APIKey?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        key = nil
    }

    /// The request's key, which every authenticated route has; a route reached without one is a
    /// wiring bug, answered as unauthenticated rather than served.
    func requireKey() throws(APIKeyError) -> APIKey {
        guard let key else { throw APIKeyError(.unauthenticated, "no valid API key: send `Authorization: Bearer <token>`") }
        return key
    }
}
