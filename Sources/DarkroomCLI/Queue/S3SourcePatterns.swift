import DarkroomClient
import DarkroomS3
import DarkroomSources

/// `s3://` prefixes and globs given as sources to `enqueue` and `run`
/// (docs/object-storage.md#sources): each becomes a listing of its bucket, made with this
/// command's `--s3-endpoint` and `--allow-bucket` and the endpoint's credentials.
enum S3SourcePatterns {
    /// The listing of one pattern, after checking its bucket is allowed here.
    static func listing(_ text: String, options: S3Options, maxKeys: Int = 1000) throws(UsageFailure) -> S3Listing {
        let configuration = try options.configuration()
        do {
            return try S3Listing(text, configuration: configuration, maxKeys: maxKeys)
        } catch {
            throw UsageFailure(error.message)
        }
    }

    /// `requests` with every pattern source replaced by the objects it lists, in listing order
    /// (for `run`, which keeps every job of its batch anyway). A pattern matching nothing, or a
    /// listing that fails, is a usage failure naming it.
    static func expand(_ requests: [JobRequest], options: S3Options) async throws -> [JobRequest] {
        guard requests.contains(where: { S3KeyPattern.isPattern($0.source) }) else { return requests }
        var expanded: [JobRequest] = []
        for request in requests {
            guard S3KeyPattern.isPattern(request.source) else {
                expanded.append(request)
                continue
            }
            let listing = try listing(request.source, options: options)
            let statistics = try await list(listing) { sources in
                expanded += sources.map { source in
                    var copy = request
                    copy.source = source.description
                    return copy
                }
            }
            if statistics.matched == 0 { throw UsageFailure("\(request.source) matches no object (\(statistics.listed) listed)") }
        }
        return expanded
    }

    /// `listing.forEachPage`, its S3 failure a usage failure naming the pattern; skipped keys are
    /// reported on standard error.
    static func list(_ listing: S3Listing, _ consume: ([S3SourceAddress]) async throws -> Void) async throws -> S3Listing.Statistics {
        let statistics: S3Listing.Statistics
        do {
            statistics = try await listing.forEachPage(consume)
        } catch let error as S3Error {
            throw UsageFailure("cannot list \(listing.pattern): \(error.message) [\(error.sourceError(for: listing.pattern.text).code.rawValue)]")
        }
        if statistics.skipped > 0 {
            StandardError.line(
                "darkroom: \(listing.pattern): skipped \(statistics.skipped) key\(statistics.skipped == 1 ? "" : "s") with a '.' or '..' segment or a control character, which no job can fetch"
            )
        }
        return statistics
    }
}
