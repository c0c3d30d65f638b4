/// The two halves of a Darkroom cache directory, each with its own size limit.
///
/// Originals (fetched source bytes) are kept apart from results (encoded outputs), so a second
/// chain on the same source URL finds the original and does not download it again, while a flood
/// of small results cannot evict the originals they were made from.
public enum CacheArea: String, Sendable, CaseIterable, Hashable {
    /// Source bytes as fetched, keyed by source key.
    case originals
    /// Encoded results, keyed by source key + chain identifier + output options.
    case results
}
