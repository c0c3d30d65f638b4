/// Lists the objects of an `S3KeyPattern` page by page, handing each page's matches to a consumer
/// before asking for the next, so a million-object prefix is never held in memory: at most one
/// page (`maxKeys` objects) at a time.
public struct S3Listing: Sendable {
    /// What one listing did.
    public struct Statistics: Sendable, Equatable {
        /// `ListObjectsV2` requests made.
        public var pages = 0
        /// Objects the pages held.
        public var listed = 0
        /// Objects that matched and went to the consumer.
        public var matched = 0
        /// Matching keys skipped because no job could fetch them (a `.`/`..` segment, a control character).
        public var skipped = 0
        /// The most objects held at once: the largest page.
        public var largestPage = 0

        public init() {}
    }

    public let pattern: S3KeyPattern
    let client: any S3ObjectReading
    /// Keys asked per page (`ListObjectsV2`'s `max-keys`; S3 answers at most 1000).
    public let maxKeys: Int

    public init(pattern: S3KeyPattern, client: any S3ObjectReading, maxKeys: Int = 1000) {
        self.pattern = pattern
        self.client = client
        self.maxKeys = max(1, min(maxKeys, 1000))
    }

    /// Calls `consume` with each page's matching objects (as sources pinned to their ETags),
    /// in listing order, and waits for it before asking for the next page. Throws the listing's
    /// `S3Error`, or what `consume` throws; a cancelled task stops before its next page
    /// (`CancellationError`), so a caller that goes away lists and consumes nothing more.
    @discardableResult
    public func forEachPage(_ consume: ([S3SourceAddress]) async throws -> Void) async throws -> Statistics {
        var statistics = Statistics()
        var token: String?
        repeat {
            try Task.checkCancellation()
            let page = try await client.listObjects(
                bucket: pattern.bucket.name, prefix: pattern.listPrefix, continuationToken: token, maxKeys: maxKeys)
            statistics.pages += 1
            statistics.listed += page.objects.count
            statistics.largestPage = max(statistics.largestPage, page.objects.count)
            var sources: [S3SourceAddress] = []
            for object in page.objects where pattern.matches(object.key) {
                guard S3ObjectAddress.keyProblem(object.key) == nil else {
                    statistics.skipped += 1
                    continue
                }
                sources.append(S3SourceAddress(object: S3ObjectAddress(bucket: pattern.bucket, key: object.key), etag: object.etag))
            }
            statistics.matched += sources.count
            if !sources.isEmpty { try await consume(sources) }
            token = page.nextContinuationToken
        } while token != nil
        return statistics
    }
}
