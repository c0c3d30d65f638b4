import DarkroomCache
import Foundation
import Testing

@Suite("DiskCache stores and reads entries atomically in a documented layout")
struct DiskCacheStoreTests {
    @Test("A stored value reads back byte for byte, and a second store replaces it whole")
    func roundTrip() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        let first = CacheTestKit.value(1, count: 50_000)
        try cache.store(first, for: "https://example.com/a.jpg", in: .originals)
        #expect(try cache.data(for: "https://example.com/a.jpg", in: .originals) == first)
        #expect(try cache.data(for: "https://example.com/a.jpg", in: .results) == nil)  // areas are apart

        let second = CacheTestKit.value(2, count: 7)
        try cache.store(second, for: "https://example.com/a.jpg", in: .originals)
        #expect(try cache.data(for: "https://example.com/a.jpg", in: .originals) == second)
        #expect(try CacheTestKit.bytes(of: cache.path(for: "https://example.com/a.jpg", in: .originals)) == second)
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)
    }

    @Test("Entries live at DIR/area/ab/cd/<sha256 of key> as raw bytes, under a VERSION file")
    func layout() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory + "/", configuration: CacheTestKit.configuration())
        // SHA-256("abc") is the FIPS 180-2 test vector.
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(cache.path(for: "abc", in: .results) == "\(directory)/results/ba/78/\(digest)")
        #expect(cache.path(for: "abc", in: .originals) == "\(directory)/originals/ba/78/\(digest)")
        try cache.store([1, 2, 3], for: "abc", in: .results)
        #expect(try CacheTestKit.bytes(of: "\(directory)/results/ba/78/\(digest)") == [1, 2, 3])
        #expect(try String(contentsOfFile: "\(directory)/VERSION", encoding: .utf8) == "darkroom-cache-layout 1\n")
    }

    @Test("A directory holding another layout version is refused with cache.layout")
    func otherLayoutVersion() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        try "darkroom-cache-layout 2\n".write(toFile: "\(directory)/VERSION", atomically: true, encoding: .utf8)
        #expect(throws: CacheError.self) { try DiskCache(directory: directory) }
        do {
            _ = try DiskCache(directory: directory)
        } catch {
            #expect(error.code == .layout)
            #expect(!error.isTransient)
        }
    }

    @Test("An empty value is refused, and an empty file left by a power cut reads as a miss")
    func emptyValues() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        #expect(throws: CacheError.self) { try cache.store([], for: "k", in: .results) }
        try cache.store([9], for: "k", in: .results)
        _ = FileManager.default.createFile(atPath: cache.path(for: "k", in: .results), contents: Data())
        #expect(try cache.data(for: "k", in: .results) == nil)
    }

    @Test("removeValue deletes an entry, and removing a missing one is fine")
    func remove() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        try cache.store([1, 2], for: "k", in: .results)
        try cache.removeValue(for: "k", in: .results)
        #expect(try cache.data(for: "k", in: .results) == nil)
        try cache.removeValue(for: "never-stored", in: .results)
    }

    @Test("A partly written temporary file is invisible to readers and is swept only after the grace period")
    func partialTemporaryFile() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        let full = CacheTestKit.value(3, count: 4096)
        try cache.store(full, for: "key", in: .results)
        // A writer that died halfway: half a value in a temporary file next to the entry.
        let entry = cache.path(for: "key", in: .results)
        let temporary = (entry as NSString).deletingLastPathComponent + "/.tmp-dead-writer"
        _ = FileManager.default.createFile(atPath: temporary, contents: Data(full[0..<1000]))
        #expect(try cache.data(for: "key", in: .results) == full)
        #expect(try cache.stats().area(.results)?.entries == 1)

        // Young: another process may still be writing it.
        var report = try cache.sweep()
        #expect(report.removedTemporaryFiles == 0)
        #expect(FileManager.default.fileExists(atPath: temporary))

        try CacheTestKit.age(temporary, secondsAgo: 11 * 60)
        report = try cache.sweep()
        #expect(report.removedTemporaryFiles == 1)
        #expect(report.area(.results)?.removedTemporaryBytes == 1000)
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(try cache.data(for: "key", in: .results) == full)
    }

    @Test("Files an operator put in the cache directory are never touched by sweeps or prunes")
    func foreignFiles() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration(resultsLimit: 1))
        try cache.store([1, 2, 3], for: "k", in: .results)
        let leaf = (cache.path(for: "k", in: .results) as NSString).deletingLastPathComponent
        let notes = ["\(leaf)/README", "\(directory)/results/notes.txt"]
        for path in notes {
            _ = FileManager.default.createFile(atPath: path, contents: Data("keep".utf8))
            try CacheTestKit.age(path, secondsAgo: 365 * 86_400)
        }
        try cache.sweep()
        try cache.prune(maxBytes: 0, olderThan: .seconds(1))
        #expect(try cache.data(for: "k", in: .results) == nil)  // the entry went (limit 1 byte)
        for path in notes { #expect(FileManager.default.fileExists(atPath: path)) }
    }
}
