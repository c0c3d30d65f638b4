import DarkroomAPIKeys
import Hummingbird
import NIOCore

/// The job API's request context: Hummingbird's core storage and the API key the request
/// authenticated with (`AuthenticationMiddleware` sets it before any `/v1` handler runs).
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's key; nil only for the routes that need none (`GET /v1/openapi.json`).
    public var key: APIKey?
    /// The request's connection: a submit that lists buckets page by page stops once it closes
    /// (the client went away), instead of enqueueing the rest for nobody (`clientConnected`).
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        key = nil
        channel = source.channel
    }

    /// Whether the client is still there: its connection open, and its side of it not closed
    /// (`RequestBytesWatcher.inputClosed`: half-closure is allowed, so a client that closes
    /// leaves the channel active). True when the context has no connection.
    func clientConnected() async -> Bool {
        guard let channel else { return true }
        guard channel.isActive else { return false }
        let closed = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: RequestBytesWatcher.self).inputClosed
        }.get()
        return closed != true
    }

    /// The request's key, which every authenticated route has; a route reached without one is a
    /// wiring bug, answered as unauthenticated rather than served.
    func requireKey() throws(APIKeyError) -> APIKey {
        guard let key else { throw APIKeyError(.unauthenticated, "no valid API key: send `Authorization: Bearer <token>`") }
        return key
    }
}
