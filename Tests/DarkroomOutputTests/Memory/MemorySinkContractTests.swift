import DarkroomOutput
import DarkroomOutputContract
import Testing

/// `MemorySink` against the output sink contract.
@Suite("MemorySink contract")
struct MemorySinkContractTests {
    static let factory: OutputSinkFactory = {
        let sink = MemorySink(allowedPrefixes: ["jobs/"])
        let destination = "jobs/out"
        return OutputSinkHarness(
            sink: sink, destination: destination, refusedDestination: "elsewhere/out",
            read: { sink.bytes(at: $0) },
            entries: {
                let prefix = MemorySink.location("", in: destination)
                return sink.locations.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            })
    }

    @Test("Storing reports the location, size and SHA-256, and leaves one entry")
    func stores() async throws { try await OutputSinkContract.storeReportsLocationSizeAndChecksum(Self.factory) }

    @Test("Redelivery with the same bytes succeeds and leaves one entry")
    func redelivery() async throws { try await OutputSinkContract.redeliveryWithSameBytesSucceeds(Self.factory) }

    @Test("Different bytes at a taken name are refused or replace it, as asked")
    func conflicts() async throws { try await OutputSinkContract.differentBytesFollowTheConflictPolicy(Self.factory) }

    @Test("A refused store says who wrote the output; a redelivery still succeeds")
    func owners() async throws { try await OutputSinkContract.ownersTravelWithOutputs(Self.factory, recordsOwners: true) }

    @Test("Writers racing for one name: exactly one gets it")
    func races() async throws { try await OutputSinkContract.racingWritersGetTheNameOnce(Self.factory) }

    @Test("Readers never see part of an output")
    func atomic() async throws { try await OutputSinkContract.readersNeverSeePartOfAnOutput(Self.factory) }

    @Test("Refused destinations and bad names fail with output.not-allowed")
    func refusals() async throws { try await OutputSinkContract.refusesDestinationsAndNamesOutsideItsRules(Self.factory) }
}
