import DarkroomCache
import DarkroomTestSupport
import Glibc
import Testing

/// The disk cache's entry writes over a file system that fails on purpose: a coded error, the
/// entry as it was, no temporary file; faults the retrying layer absorbs store the new entry.
@Suite("The disk cache under file-system faults")
struct DiskCacheFaultTests {
    static func cache(_ directory: String, _ fake: FaultInjectingFileSystemCalls) throws -> DiskCache {
        var configuration = CacheTestKit.configuration()
        configuration.durableWrites = true  // so the data's fsync is made, and can fail
        return try DiskCache(directory: directory, configuration: configuration, fileSystem: fake)
    }

    @Test(
        "Given an entry, when a fault hits the store replacing it, then cache.disk-full or cache.io is thrown and the old entry reads whole",
        arguments: FileFault.allCases)
    func replacing(fault: FileFault) throws {
        let directory = try CacheTestKit.makeDirectory("faults")
        defer { CacheTestKit.remove(directory) }
        let fake = FaultInjectingFileSystemCalls()
        let cache = try Self.cache(directory, fake)
        let old = CacheTestKit.value(1, count: 50_000)
        let new = CacheTestKit.value(2, count: 80_000)
        try cache.store(old, for: "k", in: .results)
        fault.arm(fake)
        var failure: CacheError?
        do throws(CacheError) { try cache.store(new, for: "k", in: .results) } catch { failure = error }
        let entry = try cache.data(for: "k", in: .results)
        if let failure {
            let errno = try #require(fault.expectedErrno)
            #expect(failure.code == (errno == ENOSPC ? .diskFull : .io))
            #expect(failure.systemError == errno)
            #expect(failure.isTransient)
            #expect(entry == old)
        } else {
            #expect(fault.expectedErrno == nil, "the store reported success through \(fault)")
            #expect(entry == new)
        }
        #expect(!fake.injected.isEmpty)
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)
    }

    @Test("Given no entry, when a fault fails the store, then the key still misses", arguments: FileFault.allCases)
    func new(fault: FileFault) throws {
        let directory = try CacheTestKit.makeDirectory("faults")
        defer { CacheTestKit.remove(directory) }
        let fake = FaultInjectingFileSystemCalls()
        let cache = try Self.cache(directory, fake)
        fault.arm(fake)
        let stored = (try? cache.store(CacheTestKit.value(3, count: 1000), for: "fresh", in: .originals)) != nil
        #expect(stored == (fault.expectedErrno == nil))
        let entry = try cache.data(for: "fresh", in: .originals)
        #expect((entry != nil) == stored)
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)
    }
}
