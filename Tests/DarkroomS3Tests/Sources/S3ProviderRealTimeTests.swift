import DarkroomS3
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Testing

@Suite("s3:// sources fetched from moto", .realTime, .serialized)
struct S3ProviderRealTimeTests {
    /// moto with bucket `uploads` allowed on the default endpoint, and a provider whose client
    /// requests are counted.
    final class Setup: Sendable {
        let moto: MotoS3Server
        let client: S3Client
        let counter: CountingS3Reader
        let provider: S3Provider

        init(endpoint makeEndpoint: (MotoS3Server) -> S3Endpoint = { $0.endpoint(alias: S3Endpoint.defaultAlias) }) async throws {
            moto = try await MotoS3Server()
            try await moto.createBucket("uploads")
            try await moto.createBucket("private")
            var endpoint = makeEndpoint(moto)
            endpoint.alias = S3Endpoint.defaultAlias
            let pool = BlockingWorkPool(threadCount: 4)
            client = S3Client(endpoint: moto.endpoint(alias: S3Endpoint.defaultAlias), pool: pool)
            let configuration = S3Configuration(
                endpoints: [endpoint], allowedBuckets: [S3Bucket(endpoint: S3Endpoint.defaultAlias, name: "uploads")])
            let counter = CountingS3Reader(S3Client(endpoint: endpoint, pool: pool))
            self.counter = counter
            provider = S3Provider(configuration: configuration) { _, _ in counter }
        }

        func put(_ key: String, _ bytes: [UInt8], bucket: String = "uploads") async throws -> String {
            try await client.putObject(bucket: bucket, key: key, bytes: bytes, contentType: "image/jpeg", cacheControl: nil)
        }

        func fetch(_ source: String) async throws(SourceError) -> FetchedSource {
            let reference = SourceReference(source)
            _ = try provider.cacheKey(for: reference, policy: SourcePolicy())
            return try await provider.fetch(reference, policy: SourcePolicy())
        }
    }

    @Test("An object is fetched with its bytes, and cached under its ETag; a listed one needs no request for its key")
    func fetches() async throws {
        let setup = try await Setup()
        let bytes = try TestImages.gradient(.jpeg, width: 40, height: 30)
        let etag = try await setup.put("2026/11/a b+c=d é.jpg", bytes)
        let fetched = try await setup.fetch("s3://uploads/2026/11/a b+c=d é.jpg")
        #expect(fetched.bytes == bytes)
        #expect(fetched.cacheKey == "s3://default@uploads/2026/11/a b+c=d é.jpg#\(etag)")
        #expect(fetched.contentType == "image/jpeg")
        let pinned = SourceReference("s3://uploads;etag=\(etag)/2026/11/a b+c=d é.jpg")
        let before = setup.counter.total
        #expect(try setup.provider.cacheKey(for: pinned, policy: SourcePolicy()) == fetched.cacheKey)
        #expect(setup.counter.total == before, "a pinned source's key costs no request")
        #expect(try await setup.provider.fetch(pinned, policy: SourcePolicy()).bytes == bytes)
    }

    @Test("A bucket not allowed, an unknown endpoint and a '..' key are refused before any request")
    func refused() async throws {
        let setup = try await Setup()
        _ = try await setup.put("a.jpg", [1, 2, 3], bucket: "private")
        for source in ["s3://private/a.jpg", "s3://other@uploads/a.jpg", "s3://uploads/x/../a.jpg", "s3://uploads/a\u{1}.jpg"] {
            await #expect(throws: SourceError.self) { _ = try await setup.fetch(source) }
            do {
                _ = try setup.provider.cacheKey(for: SourceReference(source), policy: SourcePolicy())
                Issue.record("\(source) was not refused")
            } catch {
                #expect(error.code == .refused, "\(source)")
                #expect(!error.isTransient)
            }
        }
        #expect(setup.counter.total == 0, "nothing was asked of the server")
    }

    @Test("A missing key is source.not-found; a body over the limit source.too-large")
    func notFoundAndTooLarge() async throws {
        let setup = try await Setup()
        do {
            _ = try await setup.fetch("s3://uploads/missing.jpg")
            Issue.record("a missing key was fetched")
        } catch {
            #expect(error.code == .notFound && !error.isTransient)
        }
        _ = try await setup.put("big.bin", [UInt8](repeating: 7, count: 4096))
        var policy = SourcePolicy()
        policy.maxBytes = 1000
        do {
            _ = try await setup.provider.fetch(SourceReference("s3://uploads/big.bin"), policy: policy)
            Issue.record("over the limit, fetched")
        } catch {
            #expect(error.code == .tooLarge)
        }
    }

    @Test("A wrong secret is source.credentials, transient, and the message holds no secret")
    func wrongSecret() async throws {
        let setup = try await Setup(endpoint: { $0.wrongSecretEndpoint })
        _ = try await setup.put("a.jpg", [1, 2, 3])
        do {
            _ = try await setup.fetch("s3://uploads/a.jpg")
            Issue.record("fetched with a wrong secret")
        } catch {
            #expect(error.code == .credentials)
            #expect(error.isTransient)
            if let secret = setup.moto.wrongSecretEndpoint.credentials?.secretAccessKey {
                #expect(!error.message.contains(secret))
            }
        }
    }

    @Test("A replaced object is fetched again: a new ETag, a new key; a job listed before fails with source.changed")
    func replaced() async throws {
        let setup = try await Setup()
        let first = try TestImages.gradient(.jpeg, width: 40, height: 30, tint: 10)
        let second = try TestImages.gradient(.jpeg, width: 40, height: 30, tint: 200)
        let oldETag = try await setup.put("a.jpg", first)
        let old = try await setup.fetch("s3://uploads/a.jpg")
        let newETag = try await setup.put("a.jpg", second)
        #expect(oldETag != newETag)
        let new = try await setup.fetch("s3://uploads/a.jpg")
        #expect(new.bytes == second)
        #expect(new.cacheKey != old.cacheKey)
        do {
            _ = try await setup.fetch("s3://uploads;etag=\(oldETag)/a.jpg")
            Issue.record("the old listing's job fetched the new bytes")
        } catch {
            #expect(error.code == .changed)
            #expect(!error.isTransient)
        }
    }
}
