import DarkroomHTTPAPI
import DarkroomQueue
import Hummingbird

/// Refuses cross-site requests that would change state with the browser's credentials.
///
/// The session cookie is `SameSite=Strict`, which keeps a modern browser from sending it with a
/// request another site starts; this is the second lock, for what SameSite does not cover (a
/// sibling subdomain counts as the same site; a server without a token needs no cookie at all).
/// Browsers send `Origin` with every POST and DELETE, same-origin ones included, so a
/// state-changing request that relies on the browser — the cookie, or no token — must carry an
/// `Origin` equal to this server's own (`http://` or `https://` and the request's `Host`). A
/// request with the bearer token is not a browser's ambient credential and needs none.
enum CrossSiteGuard {
    /// The methods that only read.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head || method == .options
    }

    /// A 403 answer when `request` changes state without its own origin, else nil.
    static func refusal(_ request: Request) -> Response? {
        guard !isSafe(request.method) else { return nil }
        guard let origin = request.headers[.origin] else {
            return forbidden("a state-changing request with the session cookie must carry Origin; send it from the dashboard page")
        }
        guard let host = request.head.authority, isSameOrigin(origin, host: host) else {
            return forbidden("the request's Origin is not this server's; act from the dashboard page itself")
        }
        return nil
    }

    /// Whether `origin` (`scheme://host[:port]`) is `http` or `https` at exactly `host` (the
    /// request's `Host`, `host[:port]`), ignoring case.
    static func isSameOrigin(_ origin: String, host: String) -> Bool {
        let host = host.lowercased()
        return !host.isEmpty && ["http://" + host, "https://" + host].contains(origin.lowercased())
    }

    /// 403 with a coded JSON error body, as the job API's refusals (`http.cross-site-request`).
    static func forbidden(_ message: String) -> Response {
        let error = CoordinatorHTTPError(.crossSiteRequest, message)
        return APIResponse.errors(.forbidden, [ErrorRecord(code: error.code.rawValue, message: error.message)])
    }
}
