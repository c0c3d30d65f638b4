import Hummingbird

extension APIServer {
    /// The `/v1/webhooks…` routes. Constant segments (`deliveries`) take precedence over `{name}`.
    func addWebhookRoutes(to router: Router<APIRequestContext>) {
        let (webhooks, logger, maxBody) = (webhooks, logger, configuration.maxBodyBytes)
        router.post("/v1/webhooks") { request, context in
            await Self.answer(logger) {
                let key = try context.requireKey()
                var request = request
                return try await webhooks.create(Array(buffer: try await request.collectBody(upTo: maxBody)), key: key)
            }
        }
        router.get("/v1/webhooks") { _, context in
            await Self.answer(logger) { try await webhooks.list(key: try context.requireKey()) }
        }
        router.get("/v1/webhooks/deliveries") { request, context in
            await Self.answer(logger) {
                let query = request.uri.queryParameters
                return try await webhooks.deliveries(
                    failed: query["failed"].map(String.init), limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init),
                    key: try context.requireKey())
            }
        }
        router.post("/v1/webhooks/deliveries/{id}/redeliver") { _, context in
            await Self.answer(logger) { try await webhooks.redeliver(try Self.segment("id", context), key: try context.requireKey()) }
        }
        router.delete("/v1/webhooks/{name}") { _, context in
            await Self.answer(logger) { try await webhooks.remove(try Self.segment("name", context), key: try context.requireKey()) }
        }
        router.post("/v1/webhooks/{name}/rotate") { _, context in
            await Self.answer(logger) { try await webhooks.rotate(try Self.segment("name", context), key: try context.requireKey()) }
        }
        router.post("/v1/webhooks/{name}/retire-old") { _, context in
            await Self.answer(logger) { try await webhooks.retireOld(try Self.segment("name", context), key: try context.requireKey()) }
        }
    }

    /// The path segment `name`, percent-decoded.
    static func segment(_ name: String, _ context: APIRequestContext) throws(APIError) -> String {
        guard let text = context.parameters.get(name)?.removingPercentEncoding, !text.isEmpty else {
            throw APIError(.notFound, "no such \(name) in the path")
        }
        return text
    }
}
