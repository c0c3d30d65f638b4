import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Testing

@Suite("Listing s3:// prefixes and globs page by page from moto", .realTime, .serialized)
struct S3ListingRealTimeTests {
    @Test("A glob is listed from its literal prefix, a page at a time, each page consumed before the next is asked for")
    func pages() async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("uploads")
        let client = S3Client(endpoint: moto.endpoint(alias: S3Endpoint.defaultAlias), pool: BlockingWorkPool(threadCount: 2))
        var etags: [String: String] = [:]
        let keys = (1...7).map { "in/img \($0).jpg" } + ["in/a.png", "in/sub/deep.jpg", "in/sub/", "other/x.jpg"]
        for key in keys {
            etags[key] = try await client.putObject(bucket: "uploads", key: key, bytes: Array(key.utf8), contentType: nil, cacheControl: nil)
        }
        let counter = CountingS3Reader(client)
        let listing = S3Listing(pattern: try S3KeyPattern(parsing: "s3://uploads/in/*.jpg"), client: counter, maxKeys: 3)
        var consumed: [S3SourceAddress] = []
        var listsSeenByConsumer: [Int] = []
        let statistics = try await listing.forEachPage { page in
            listsSeenByConsumer.append(counter.count("list"))
            consumed += page
        }
        #expect(consumed.map(\.object.key) == (1...7).map { "in/img \($0).jpg" })
        #expect(consumed.allSatisfy { $0.etag == etags[$0.object.key] }, "each job is pinned to the ETag listed")
        #expect(statistics.pages == 4, "10 keys under in/, 3 a page")
        #expect(statistics.listed == 10)
        #expect(statistics.matched == 7)
        #expect(statistics.largestPage <= 3, "never more than a page held")
        #expect(listsSeenByConsumer == Array(1...listsSeenByConsumer.count), "page n consumed before page n+1 is asked for")

        let everything = S3Listing(pattern: try S3KeyPattern(parsing: "s3://uploads/in/"), client: client, maxKeys: 1000)
        var all: [String] = []
        try await everything.forEachPage { all += $0.map(\.object.key) }
        #expect(all.count == 9, "every object under the prefix but the folder marker")
        let deep = S3Listing(pattern: try S3KeyPattern(parsing: "s3://uploads/**/*.jpg"), client: client)
        var deepKeys: [String] = []
        try await deep.forEachPage { deepKeys += $0.map(\.object.key) }
        #expect(deepKeys.count == 9)
    }
}
