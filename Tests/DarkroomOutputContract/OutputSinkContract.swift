import DarkroomOutput
import Foundation
import Testing

/// The behaviour every `OutputSink` must show (its doc comment's contract), written once. Each
/// function takes a factory, so `MemorySinkContractTests`, `VolumeSinkContractTests` and any later
/// sink (object storage) run exactly the same checks.
///
/// Durability (`fsync` before `store` returns) cannot be seen from inside the process; what the
/// contract checks is its visible half: once `store` returns, a reader that does not go through
/// the sink finds the whole output.
public enum OutputSinkContract {
    /// SHA-256 of `abc` (FIPS 180-2's first test vector): the checksum is checked against a
    /// published value, not against the implementation's own hashing.
    static let abcSHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

    /// Given an accepted destination, storing reports a location a reader finds the bytes at,
    /// their size and their SHA-256; the destination holds that one entry and no temporary file.
    public static func storeReportsLocationSizeAndChecksum(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            try await harness.sink.prepare(harness.destination)
            let stored = try await harness.sink.store(Array("abc".utf8), named: "a.txt", in: harness.destination, onConflict: .refuse)
            #expect(stored.byteCount == 3)
            #expect(stored.sha256 == abcSHA256)
            #expect(stored.location.hasSuffix("a.txt"))
            #expect(harness.read(stored.location) == Array("abc".utf8))
            #expect(harness.entries() == ["a.txt"])
        }
    }

    /// Given an output stored, storing the same bytes under the same name again (a redelivered
    /// job) succeeds with the same record and leaves one entry — with either conflict policy.
    public static func redeliveryWithSameBytesSucceeds(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let bytes = [UInt8](repeating: 7, count: 4096)
            let first = try await harness.sink.store(bytes, named: "cat.webp", in: harness.destination, onConflict: .refuse)
            let again = try await harness.sink.store(bytes, named: "cat.webp", in: harness.destination, onConflict: .refuse)
            let replaced = try await harness.sink.store(bytes, named: "cat.webp", in: harness.destination, onConflict: .replace)
            #expect(again == first)
            #expect(replaced == first)
            #expect(harness.entries() == ["cat.webp"])
            #expect(harness.read(first.location) == bytes)
        }
    }

    /// Given an output stored, different bytes under its name are refused with `output.taken`
    /// (the first output untouched, no entry added) under `.refuse`, and replace it under `.replace`.
    public static func differentBytesFollowTheConflictPolicy(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let first = try await harness.sink.store([1, 2, 3], named: "x.png", in: harness.destination, onConflict: .refuse)
            let refused = await #expect(throws: OutputError.self) {
                try await harness.sink.store([9, 9], named: "x.png", in: harness.destination, onConflict: .refuse)
            }
            #expect(refused?.code == .taken)
            #expect(refused?.isTransient == false)
            #expect(harness.read(first.location) == [1, 2, 3])
            #expect(harness.entries() == ["x.png"])
            let replaced = try await harness.sink.store([9, 9], named: "x.png", in: harness.destination, onConflict: .replace)
            #expect(replaced.location == first.location)
            #expect(replaced.byteCount == 2)
            #expect(harness.read(first.location) == [9, 9])
            #expect(harness.entries() == ["x.png"])
        }
    }

    /// Given an output stored by one owner, a `.refuse` of different bytes by another says who
    /// wrote it — that owner, or nil where the sink cannot tell (`recordsOwners` false) — never
    /// the refused writer; the same bytes from the same owner (a redelivery) still succeed, and
    /// a `.replace` makes the new writer the owner.
    public static func ownersTravelWithOutputs(_ make: OutputSinkFactory, recordsOwners: Bool) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let first = OutputOwner(job: "job-1", batch: "batch-a")
            let second = OutputOwner(job: "job-2", batch: "batch-b")
            let stored = try await harness.sink.store([1, 2], named: "o.png", in: harness.destination, owner: first, onConflict: .refuse)
            let again = try await harness.sink.store([1, 2], named: "o.png", in: harness.destination, owner: first, onConflict: .refuse)
            #expect(again == stored)
            let refused = await #expect(throws: OutputError.self) {
                try await harness.sink.store([3], named: "o.png", in: harness.destination, owner: second, onConflict: .refuse)
            }
            #expect(refused?.code == .taken)
            #expect(refused?.owner == (recordsOwners ? first : nil))
            _ = try await harness.sink.store([3], named: "o.png", in: harness.destination, owner: second, onConflict: .replace)
            let after = await #expect(throws: OutputError.self) {
                try await harness.sink.store([4], named: "o.png", in: harness.destination, owner: first, onConflict: .refuse)
            }
            #expect(after?.owner == (recordsOwners ? second : nil))
            #expect(harness.entries() == ["o.png"])
        }
    }

    /// Given eight writers racing for one name with different bytes under `.refuse`, exactly one
    /// gets it, the others get `output.taken`, and the name holds the winner's bytes whole.
    public static func racingWritersGetTheNameOnce(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let sink = harness.sink
            let destination = harness.destination
            let outcomes = await withTaskGroup(of: (UInt8, Result<StoredOutput, OutputError>).self) { group in
                for writer in UInt8(1)...8 {
                    group.addTask {
                        let bytes = [UInt8](repeating: writer, count: 64 * 1024)
                        do throws(OutputError) {
                            return (writer, .success(try await sink.store(bytes, named: "race.jpg", in: destination, onConflict: .refuse)))
                        } catch {
                            return (writer, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.filter { if case .success = $0.1 { true } else { false } }
            #expect(winners.count == 1)
            #expect(outcomes.allSatisfy { if case .failure(let error) = $0.1 { error.code == .taken } else { true } })
            if let (writer, result) = winners.first, case .success(let stored) = result {
                #expect(harness.read(stored.location) == [UInt8](repeating: writer, count: 64 * 1024))
            }
            #expect(harness.entries() == ["race.jpg"])
        }
    }

    /// Given an output replaced again and again while readers read it, every read finds one
    /// version whole: never a partial or mixed file.
    public static func readersNeverSeePartOfAnOutput(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let size = 256 * 1024
            let sink = harness.sink
            let destination = harness.destination
            let first = try await sink.store([UInt8](repeating: 0, count: size), named: "big.png", in: destination, onConflict: .replace)
            let read = harness.read
            let location = first.location
            let torn = await withTaskGroup(of: Int.self) { group in
                group.addTask {
                    for round in UInt8(1)...24 {
                        _ = try? await sink.store([UInt8](repeating: round, count: size), named: "big.png", in: destination, onConflict: .replace)
                    }
                    return 0
                }
                for _ in 0..<2 {
                    group.addTask {
                        var torn = 0
                        for _ in 0..<200 {
                            guard let bytes = read(location) else {
                                torn += 1
                                continue
                            }
                            // memcmp against the one version its first byte names: fast even unoptimised.
                            let whole = [UInt8](repeating: bytes.first ?? 0, count: size)
                            let same =
                                bytes.count == size
                                && bytes.withUnsafeBytes { a in whole.withUnsafeBytes { memcmp(a.baseAddress!, $0.baseAddress!, size) == 0 } }
                            if !same { torn += 1 }
                            await Task.yield()
                        }
                        return torn
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(torn == 0)
            #expect(harness.entries() == ["big.png"])
        }
    }

    /// A destination the sink does not accept, and names that are not one file name, are refused
    /// with `output.not-allowed` (permanent) before anything is written.
    public static func refusesDestinationsAndNamesOutsideItsRules(_ make: OutputSinkFactory) async throws {
        try await OutputSinkHarness.with(make) { harness in
            let prepared = await #expect(throws: OutputError.self) { try await harness.sink.prepare(harness.refusedDestination) }
            #expect(prepared?.code == .notAllowed)
            let stored = await #expect(throws: OutputError.self) {
                try await harness.sink.store([1], named: "a.png", in: harness.refusedDestination, onConflict: .replace)
            }
            #expect(stored?.code == .notAllowed)
            #expect(stored?.isTransient == false)
            for name in ["", ".", "..", "../a.png", "a/b.png", "a\u{1}.png"] {
                let error = await #expect(throws: OutputError.self) {
                    try await harness.sink.store([1], named: name, in: harness.destination, onConflict: .replace)
                }
                #expect(error?.code == .notAllowed, "\(name)")
            }
            #expect(harness.entries().isEmpty)
        }
    }
}
