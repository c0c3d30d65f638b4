import Testing

@testable import DarkroomSources

@Suite("File sources confined to --allow-file-root directories")
struct FileRootConfinementTests {
    typealias Support = SourcesFileTestSupport

    @Test("with no roots (the queue default) every file is refused and the message names --allow-file-root")
    func emptyRootsRefuseEverything() async throws {
        let box = try SourcesFileSandbox()
        let file = try box.file("img/a.jpg", bytes: Support.sample)
        let error = try await Support.failure(file, policy: Support.policy(roots: []))
        #expect(error.code == .refused)
        #expect(error.message.contains("--allow-file-root DIR"))
        #expect(!error.isTransient)
        #expect(throws: SourceError.self) { try Support.provider.cacheKey(for: SourceReference(file), policy: SourcePolicy()) }
    }

    @Test("a file inside a root is read")
    func insideRoot() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let file = try box.file("img/sub/a.jpg", bytes: Support.sample)
        let fetched = try await Support.fetch(file, policy: Support.policy(roots: [root]))
        #expect(fetched.bytes == Support.sample)
        #expect(fetched.finalLocation == "file://\(file)")
    }

    @Test("a symbolic link inside a root pointing outside it is refused")
    func linkInsidePointingOutside() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let secret = try box.file("secret/key.pem", bytes: Support.sample)
        let link = try box.symlink("img/innocent.jpg", to: secret)
        try box.symlink("img/dir-link", to: box.url("secret"))
        for source in [link, box.url("img/dir-link/key.pem")] {
            let error = try await Support.failure(source, policy: Support.policy(roots: [root]))
            #expect(error.code == .refused, "\(source)")
            #expect(error.message.contains("outside the allowed file roots"))
            // The message does not reveal where the link points.
            #expect(!error.message.contains("secret"))
        }
    }

    @Test("a symbolic link outside the roots pointing inside one is read")
    func linkOutsidePointingInside() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let file = try box.file("img/a.jpg", bytes: Support.sample)
        let link = try box.symlink("elsewhere.jpg", to: file)
        let fetched = try await Support.fetch(link, policy: Support.policy(roots: [root]))
        #expect(fetched.bytes == Support.sample)
        // The cache key names the real file, so both spellings share one original.
        #expect(fetched.cacheKey.hasPrefix("file://\(file)#"))
    }

    @Test("'..' that climbs out of a root is refused, '..' that stays inside is allowed")
    func dotDotEscapes() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        try box.directory("img/sub")
        try box.file("outside.jpg", bytes: Support.sample)
        try box.file("img/a.jpg", bytes: Support.sample)
        let policy = Support.policy(roots: [root])
        let escape = try await Support.failure(box.url("img/sub/../../outside.jpg"), policy: policy)
        #expect(escape.code == .refused)
        let staying = try await Support.fetch(box.url("img/sub/../a.jpg"), policy: policy)
        #expect(staying.bytes == Support.sample)
    }

    @Test("a sibling directory sharing the root's name as a prefix is not inside it (/x/img vs /x/imgevil)")
    func prefixSibling() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let evil = try box.file("imgevil/a.jpg", bytes: Support.sample)
        let error = try await Support.failure(evil, policy: Support.policy(roots: [root]))
        #expect(error.code == .refused)
        // A root written with a trailing slash behaves the same.
        let again = try await Support.failure(evil, policy: Support.policy(roots: [root + "/"]))
        #expect(again.code == .refused)
    }

    @Test("a root given through a symbolic link or with '..' is resolved before comparing")
    func rootsAreResolved() async throws {
        let box = try SourcesFileSandbox()
        try box.directory("real/img")
        let file = try box.file("real/img/a.jpg", bytes: Support.sample)
        try box.directory("real/other")
        let linkedRoot = try box.symlink("img-link", to: box.url("real/img"))
        for root in [linkedRoot, box.url("real/other/../img")] {
            let fetched = try await Support.fetch(file, policy: Support.policy(roots: [root]))
            #expect(fetched.bytes == Support.sample)
        }
    }

    @Test("one of several roots is enough, and a root that does not exist admits nothing")
    func severalRoots() async throws {
        let box = try SourcesFileSandbox()
        let first = try box.directory("one")
        let second = try box.directory("two")
        let file = try box.file("two/a.jpg", bytes: Support.sample)
        let fetched = try await Support.fetch(file, policy: Support.policy(roots: [first, box.url("missing"), second]))
        #expect(fetched.bytes == Support.sample)
        let error = try await Support.failure(file, policy: Support.policy(roots: [box.url("missing"), first]))
        #expect(error.code == .refused)
    }

    @Test("a missing file inside a root is not found, outside every root it is refused (no probing)")
    func missingFiles() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let policy = Support.policy(roots: [root])
        let inside = try await Support.failure(box.url("img/nope.jpg"), policy: policy)
        #expect(inside.code == .notFound)
        let outside = try await Support.failure(box.url("nope.jpg"), policy: policy)
        #expect(outside.code == .refused)
        let climbing = try await Support.failure(box.url("img/../nope.jpg"), policy: policy)
        #expect(climbing.code == .refused)
    }

    @Test("the root directory itself, a subdirectory and a FIFO inside a root are not regular files")
    func nonRegularInsideRoot() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        try box.directory("img/sub")
        let fifo = try box.fifo("img/pipe.jpg")
        let linkToFifo = try box.symlink("img/link-to-pipe.jpg", to: fifo)
        let policy = Support.policy(roots: [root])
        for source in [root, box.url("img/sub"), fifo, linkToFifo] {
            let error = try await Support.failure(source, policy: policy)
            #expect(error.code == .notRegularFile, "\(source)")
        }
    }

    @Test("a device is refused even when /dev is an allowed root")
    func deviceUnderRoot() async throws {
        let error = try await Support.failure("/dev/zero", policy: Support.policy(roots: ["/dev"]))
        #expect(error.code == .notRegularFile)
        #expect(error.message.contains("character device"))
    }

    @Test("a file:// URL is confined like a path")
    func fileURLConfined() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        try box.file("outside.jpg", bytes: Support.sample)
        let error = try await Support.failure("file://\(box.url("img/%2E%2E/outside.jpg"))", policy: Support.policy(roots: [root]))
        #expect(error.code == .refused)
    }

    @Test("the cache key computed before fetching matches the fetched one and also enforces the roots")
    func cacheKeyBeforeFetching() async throws {
        let box = try SourcesFileSandbox()
        let root = try box.directory("img")
        let file = try box.file("img/a.jpg", bytes: Support.sample)
        let policy = Support.policy(roots: [root])
        let key = try Support.provider.cacheKey(for: SourceReference(file), policy: policy)
        let fetched = try await Support.fetch(file, policy: policy)
        #expect(key == fetched.cacheKey)
        let outside = try box.file("b.jpg", bytes: Support.sample)
        #expect(throws: SourceError.self) { try Support.provider.cacheKey(for: SourceReference(outside), policy: policy) }
    }
}
