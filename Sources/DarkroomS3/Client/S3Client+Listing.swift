extension S3Client {
    /// One page of `ListObjectsV2` under `prefix` (up to `maxKeys`, at most 1,000), from
    /// `continuationToken` (nil: the first page). Keys are asked for URL-encoded
    /// (`encoding-type=url`) and decoded here, so any key, control characters included, arrives
    /// intact through the XML.
    public func listObjects(
        bucket: String, prefix: String, continuationToken: String?, maxKeys: Int = 1000
    ) async throws(S3Error) -> S3ListPage {
        var query: [(name: String, value: String)] = [
            ("list-type", "2"), ("prefix", prefix), ("max-keys", String(min(1000, max(1, maxKeys)))), ("encoding-type", "url"),
        ]
        if let continuationToken { query.append(("continuation-token", continuationToken)) }
        let call = Call(operation: "ListObjectsV2", method: "GET", bucket: bucket, key: nil, query: query)
        let response = try await send(call)
        let root = try xml(response, call)
        do {
            let page = try S3XMLResponses.listPage(root)
            if let next = page.nextContinuationToken, next == continuationToken {
                throw S3XMLError("the next continuation token is the one asked with")
            }
            return page
        } catch {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the listing could not be read (\(error))")
        }
    }
}
