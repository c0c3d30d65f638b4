import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomS3

/// `headBucket` and `probeMissingObject` against moto, signatures checked: what each answer
/// means for `darkroom health --s3-buckets`.
@Suite("S3 client: HeadBucket and the missing-key probe against moto", .realTime)
struct S3ClientBucketsMotoTests {
    static let pool = BlockingWorkPool(threadCount: 2)

    @Test("HeadBucket: an existing bucket returns, a missing one is notFound, a wrong secret a 403 without a code")
    func headBucket() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-head")
        let client = S3Client(endpoint: moto.endpoint(), pool: Self.pool)
        try await client.headBucket("darkroom-head")
        let missing = await #expect(throws: S3Error.self) { try await client.headBucket("darkroom-missing") }
        #expect(missing?.kind == .notFound && missing?.status == 404)
        #expect(missing?.message.hasPrefix("HeadBucket s3://moto@darkroom-missing/") == true, "\(missing?.message ?? "")")

        // A HEAD answer has no body: the 403 cannot say it was the signature.
        let wrong = S3Client(endpoint: moto.wrongSecretEndpoint, pool: Self.pool)
        let refused = await #expect(throws: S3Error.self) { try await wrong.headBucket("darkroom-head") }
        #expect(refused?.kind == .forbidden && refused?.serviceCode == nil)
    }

    @Test("The missing-key GET: NoSuchKey for a key that may not list, NoSuchBucket and a wrong secret thrown with their codes")
    func missingObjectProbe() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-probe")
        let worker = try await moto.createUser("worker", allowing: ["s3:GetObject", "s3:PutObject"])
        var endpoint = moto.endpoint()
        endpoint.credentials = worker
        let client = S3Client(endpoint: endpoint, pool: Self.pool)

        let cannotList = await #expect(throws: S3Error.self) { try await client.headBucket("darkroom-probe") }
        #expect(cannotList?.kind == .forbidden, "HeadBucket needs s3:ListBucket")
        #expect(try await client.probeMissingObject(bucket: "darkroom-probe") == .noSuchKey)

        let noBucket = await #expect(throws: S3Error.self) { try await client.probeMissingObject(bucket: "darkroom-nothere") }
        #expect(noBucket?.kind == .notFound && noBucket?.serviceCode == "NoSuchBucket")

        let wrong = S3Client(endpoint: moto.wrongSecretEndpoint, pool: Self.pool)
        let refused = await #expect(throws: S3Error.self) { try await wrong.probeMissingObject(bucket: "darkroom-probe") }
        #expect(refused?.kind == .credentials && refused?.serviceCode == "SignatureDoesNotMatch")
    }
}
