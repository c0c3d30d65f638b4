import DarkroomOutput
import DarkroomOutputContract
import Foundation
import Testing

/// `VolumeSink` (durable, as `darkroom worker` runs it) against the output sink contract, on real
/// files in a fresh temporary directory.
@Suite("VolumeSink contract")
struct VolumeSinkContractTests {
    static let factory: OutputSinkFactory = {
        let base = NSTemporaryDirectory() + "darkroom-sink-\(UUID().uuidString)"
        let root = base + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let destination = root + "/out"
        return OutputSinkHarness(
            sink: VolumeSink(roots: [root]), destination: destination, refusedDestination: base + "/elsewhere",
            read: { FileManager.default.contents(atPath: $0).map(Array.init) },
            entries: { ((try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []).sorted() },
            cleanUp: { try? FileManager.default.removeItem(atPath: base) })
    }

    @Test("Storing reports the location, size and SHA-256, and leaves one file")
    func stores() async throws { try await OutputSinkContract.storeReportsLocationSizeAndChecksum(Self.factory) }

    @Test("Redelivery with the same bytes succeeds and leaves one file")
    func redelivery() async throws { try await OutputSinkContract.redeliveryWithSameBytesSucceeds(Self.factory) }

    @Test("Different bytes at a taken name are refused or replace it, as asked")
    func conflicts() async throws { try await OutputSinkContract.differentBytesFollowTheConflictPolicy(Self.factory) }

    @Test("A refused store says who wrote the output; a redelivery still succeeds")
    func owners() async throws {
        try await OutputSinkContract.ownersTravelWithOutputs(Self.factory, recordsOwners: VolumeSink.recordsOwners(in: NSTemporaryDirectory()))
    }

    @Test("Writers racing for one name: exactly one gets it")
    func races() async throws { try await OutputSinkContract.racingWritersGetTheNameOnce(Self.factory) }

    @Test("Readers never see part of a file")
    func atomic() async throws { try await OutputSinkContract.readersNeverSeePartOfAnOutput(Self.factory) }

    @Test("Refused destinations and bad names fail with output.not-allowed")
    func refusals() async throws { try await OutputSinkContract.refusesDestinationsAndNamesOutsideItsRules(Self.factory) }
}
