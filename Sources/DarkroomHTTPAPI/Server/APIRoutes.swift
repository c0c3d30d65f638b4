import HTTPTypes

/// Every route the job API serves, as path templates (`{name}` is one path segment) with their
/// methods. `APIServer` registers exactly these; a request for a known path with another method
/// answers `405 Method Not Allowed` naming them in `Allow` (RFC 9110 §15.5.6), and a path that
/// matches none answers 404. The OpenAPI test checks `docs/openapi.json` lists each route.
enum APIRoutes {
    /// The routes: template and methods.
    static let all: [(template: String, methods: [HTTPRequest.Method])] = [
        ("/v1/jobs", [.post]),
        ("/v1/batches", [.post]),
        ("/v1/jobs/{id}", [.get, .delete]),
        ("/v1/jobs/{id}/output", [.get]),
        ("/v1/batches/{batch}", [.get, .delete]),
        ("/v1/batches/{batch}/jobs", [.get]),
        ("/v1/dead-letters", [.get, .delete]),
        ("/v1/dead-letters/retry", [.post]),
        ("/v1/webhooks", [.get, .post]),
        ("/v1/webhooks/{name}", [.delete]),
        ("/v1/webhooks/{name}/rotate", [.post]),
        ("/v1/webhooks/{name}/retire-old", [.post]),
        ("/v1/webhooks/deliveries", [.get]),
        ("/v1/webhooks/deliveries/{id}/redeliver", [.post]),
        ("/v1/openapi.json", [.get]),
    ]

    /// The methods the API serves at `path`, or nil when no route's template matches it. Where
    /// templates of both kinds match (`/v1/webhooks/deliveries` and `/v1/webhooks/{name}`), the
    /// router takes the one with more literal segments, so only its methods are served there.
    static func methods(at path: String) -> [HTTPRequest.Method]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var best: (literals: Int, methods: [HTTPRequest.Method])?
        for route in all {
            let pattern = route.template.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == segments.count else { continue }
            let matches = zip(pattern, segments).allSatisfy { expected, actual in
                expected.hasPrefix("{") ? !actual.isEmpty : expected == actual
            }
            guard matches else { continue }
            let literals = pattern.filter { !$0.hasPrefix("{") }.count
            if let current = best, current.literals > literals { continue }
            if let current = best, current.literals == literals {
                best = (literals, current.methods + route.methods)
            } else {
                best = (literals, route.methods)
            }
        }
        return best?.methods
    }
}
