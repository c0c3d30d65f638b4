import DarkroomTestSupport

/// `HTTPTestClient` sending `Authorization: Bearer <token>` with every request (none when the
/// token is nil), as an API client does.
struct KeyedHTTPClient {
    let client: HTTPTestClient
    let token: String?

    private func authorized(_ headers: [(String, String)]) -> [(String, String)] {
        (token.map { [("Authorization", "Bearer \($0)")] } ?? []) + headers
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPTestClient.Reply {
        try await client.get(path, headers: authorized(headers))
    }

    func perform(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> HTTPTestClient.Reply {
        try await client.perform(method, path, headers: authorized(headers), body: body)
    }

    /// POSTs `json` to `path`.
    func post(_ path: String, _ json: String, headers: [(String, String)] = []) async throws -> HTTPTestClient.Reply {
        try await perform("POST", path, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }
}
