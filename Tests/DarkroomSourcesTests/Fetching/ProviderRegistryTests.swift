import Testing

@testable import DarkroomSources

@Suite("Provider registry")
struct ProviderRegistryTests {
    @Test("providers are found by scheme, case-insensitively, and a bare path goes to the file provider")
    func lookup() throws {
        let registry = try ProviderRegistry([FileProvider(pool: SourcesFileTestSupport.pool), DataURIProvider()])
        #expect(registry.schemes == ["data", "file"])
        #expect(try registry.provider(for: SourceReference("/tmp/a.jpg")) is FileProvider)
        #expect(try registry.provider(for: SourceReference("DATA:,x")) is DataURIProvider)
        #expect(registry.provider(for: "Data") is DataURIProvider)
    }

    @Test("an unknown scheme is unsupported and the message lists the known schemes")
    func unsupportedScheme() async throws {
        let registry = try ProviderRegistry([FileProvider(pool: SourcesFileTestSupport.pool), DataURIProvider()])
        let error = try #require(throws: SourceError.self) { try registry.provider(for: SourceReference("ftp://example.com/a.jpg")) }
        #expect(error.code == .unsupportedScheme)
        #expect(error.message.contains("'ftp:'"))
        #expect(error.message.contains("known schemes: data, file"))
        await #expect(throws: SourceError.self) { try await registry.fetch(SourceReference("gopher://x"), policy: SourcePolicy()) }
    }

    @Test("a plugin can register a new scheme and fetches go through it")
    func pluginScheme() async throws {
        var registry = ProviderRegistry()
        try registry.register(CountingTestProvider(schemes: ["S3", "gs"]))
        #expect(registry.schemes == ["gs", "s3"])
        let fetched = try await registry.fetch(SourceReference("s3://bucket/a.jpg"), policy: SourcePolicy())
        #expect(fetched.bytes == Array("s3://bucket/a.jpg".utf8))
    }

    @Test("registering a scheme twice is an error and registers nothing of the second provider")
    func duplicateScheme() throws {
        var registry = ProviderRegistry()
        let first = CountingTestProvider(schemes: ["b"])
        try registry.register(first)
        let error = try #require(throws: ProviderRegistrationError.self) {
            try registry.register(CountingTestProvider(schemes: ["a", "b"]))
        }
        #expect(error.schemes == ["b"])
        #expect(error.message.contains("'b'"))
        #expect(error.message.contains("already registered"))
        #expect(registry.schemes == ["b"])
        #expect(registry.provider(for: "b") as? CountingTestProvider === first)
        #expect(throws: ProviderRegistrationError.self) {
            try ProviderRegistry([DataURIProvider(), DataURIProvider()])
        }
    }

    @Test("a provider that declares no schemes is refused")
    func noSchemes() {
        var registry = ProviderRegistry()
        #expect(throws: ProviderRegistrationError.self) { try registry.register(CountingTestProvider(schemes: [])) }
    }
}
