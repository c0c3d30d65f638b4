/// Where a result came from: found already computed, or computed now.
///
/// One type for the pipeline's answer (`ImageResult.origin`) and the job record's `cache` field
/// (`JobResult.cache`); the raw values are the record's spelling. Here, in the system layer,
/// because both the pipeline and the queue records use it and neither depends on the other.
public enum CacheOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// Found in the in-process memory cache.
    case memory
    /// Found in the shared disk cache.
    case disk
    /// Nothing cached: the source was fetched (or read from the originals' cache) and the result
    /// computed.
    case miss
}
