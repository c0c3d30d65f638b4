import DarkroomOutput
import DarkroomOutputContract
import Testing

@Suite("RoutedOutputSink: s3:// destinations to the object-storage sink, directories to the volume")
struct RoutedOutputSinkTests {
    @Test("Given a path and an s3:// destination, then each output goes to its own sink, whatever the scheme's case")
    func routes() async throws {
        let volume = MemorySink()
        let buckets = MemorySink()
        let sink = RoutedOutputSink(volume: volume, schemes: ["S3": buckets])
        try await sink.prepare("/out/a")
        try await sink.prepare("s3://thumbs/a/")
        let file = try await sink.store([1], named: "a.png", in: "/out/a", onConflict: .refuse)
        let object = try await sink.store([2], named: "a.png", in: "s3://thumbs/a/", onConflict: .refuse)
        let upper = try await sink.store([3], named: "b.png", in: "S3://thumbs/a/", onConflict: .refuse)
        #expect(volume.bytes(at: file.location) == [1])
        #expect(buckets.bytes(at: object.location) == [2])
        #expect(buckets.bytes(at: upper.location) == [3])
        #expect(volume.locations == [file.location])
    }

    @Test("Given a scheme no sink serves, then prepare and store refuse it with output.not-allowed, naming what is served")
    func unknownScheme() async throws {
        let sink = RoutedOutputSink(volume: MemorySink(), schemes: ["s3": MemorySink()])
        let prepared = await #expect(throws: OutputError.self) { try await sink.prepare("gs://thumbs/") }
        #expect(prepared?.code == .notAllowed)
        #expect(prepared?.message.contains("s3://") == true)
        let none = RoutedOutputSink(volume: MemorySink(), schemes: [:])
        let stored = await #expect(throws: OutputError.self) {
            try await none.store([1], named: "a.png", in: "s3://thumbs/", onConflict: .replace)
        }
        #expect(stored?.code == .notAllowed)
        #expect(stored?.message.contains("only to directories") == true)
    }

    static let factory: OutputSinkFactory = {
        let buckets = MemorySink(allowedPrefixes: ["s3://jobs/"])
        let sink = RoutedOutputSink(volume: MemorySink(allowedPrefixes: []), schemes: ["s3": buckets])
        let destination = "s3://jobs/out"
        return OutputSinkHarness(
            sink: sink, destination: destination, refusedDestination: "/elsewhere/out",
            read: { buckets.bytes(at: $0) },
            entries: {
                let prefix = MemorySink.location("", in: destination)
                return buckets.locations.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
            })
    }

    @Test("The routed sink keeps the contract: location, redelivery, conflicts, owners, races, refusals")
    func contract() async throws {
        try await OutputSinkContract.storeReportsLocationSizeAndChecksum(Self.factory)
        try await OutputSinkContract.redeliveryWithSameBytesSucceeds(Self.factory)
        try await OutputSinkContract.differentBytesFollowTheConflictPolicy(Self.factory)
        try await OutputSinkContract.ownersTravelWithOutputs(Self.factory, recordsOwners: true)
        try await OutputSinkContract.racingWritersGetTheNameOnce(Self.factory)
        try await OutputSinkContract.refusesDestinationsAndNamesOutsideItsRules(Self.factory)
    }

    @Test("Content types come from the format or the name's extension, one table for every reader")
    func mediaTypes() {
        #expect(OutputMediaType.of(name: "cat.webp") == "image/webp")
        #expect(OutputMediaType.of(name: "cat.JPG") == "image/jpeg")
        #expect(OutputMediaType.of(name: "a.b.avif") == "image/avif")
        #expect(OutputMediaType.of(name: "noext") == "application/octet-stream")
        #expect(OutputMediaType.of(name: ".png") == "application/octet-stream")
        #expect(OutputMediaType.of(format: "png") == "image/png")
    }

    @Test("The object-storage error codes are transient where waiting helps")
    func transience() {
        #expect(OutputError(.credentials, "").isTransient && OutputError(.clockSkew, "").isTransient)
        #expect(OutputError(.unavailable, "").isTransient && OutputError(.io, "").isTransient)
        #expect(!OutputError(.forbidden, "").isTransient && !OutputError(.cannotWrite, "").isTransient)
    }
}
