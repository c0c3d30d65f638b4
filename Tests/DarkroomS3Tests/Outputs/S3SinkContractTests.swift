import DarkroomOutput
import DarkroomOutputContract
import DarkroomS3
import DarkroomTestSupport
import Testing

/// `S3Sink` against the output sink contract, on a real moto server. The concurrent-readers
/// check is left out: a PUT's atomicity is the service's, and the harness reads synchronously
/// (blocking a cooperative thread), which two reader tasks at once could starve on two cores.
@Suite("S3Sink contract (moto)", .realTime, .serialized)
struct S3SinkContractTests {
    static func factory() async throws -> OutputSinkFactory { S3SinkTestKit.factory(try await S3SinkTestKit.server()) }

    @Test("Storing reports the location, size and SHA-256, and leaves one object")
    func stores() async throws { try await OutputSinkContract.storeReportsLocationSizeAndChecksum(try await Self.factory()) }

    @Test("Redelivery with the same bytes succeeds and leaves one object")
    func redelivery() async throws { try await OutputSinkContract.redeliveryWithSameBytesSucceeds(try await Self.factory()) }

    @Test("Different bytes at a taken key are refused or replace it, as asked")
    func conflicts() async throws { try await OutputSinkContract.differentBytesFollowTheConflictPolicy(try await Self.factory()) }

    @Test("A refused store names the owner from the object's metadata; a redelivery still succeeds")
    func owners() async throws { try await OutputSinkContract.ownersTravelWithOutputs(try await Self.factory(), recordsOwners: true) }

    @Test("Writers racing for one key: exactly one gets it (conditional writes)")
    func races() async throws { try await OutputSinkContract.racingWritersGetTheNameOnce(try await Self.factory()) }

    @Test("Refused buckets and bad names fail with output.not-allowed")
    func refusals() async throws { try await OutputSinkContract.refusesDestinationsAndNamesOutsideItsRules(try await Self.factory()) }
}
