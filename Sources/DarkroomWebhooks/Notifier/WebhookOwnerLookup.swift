/// Who submitted the work a delivery notifies of, so it counts against that API key's cap: the
/// job API's ownership records (`RedisOwnershipStore` conforms). Nil answers put the delivery in
/// the shared bucket of work without a key.
public protocol WebhookOwnerLookup: Sendable {
    /// The key id that submitted each job of `ids`, in their order (nil where none).
    func owners(ofJobs ids: [String]) async throws -> [String?]

    /// The key id that first submitted into batch `name`, or nil.
    func owner(ofBatch name: String) async throws -> String?
}
