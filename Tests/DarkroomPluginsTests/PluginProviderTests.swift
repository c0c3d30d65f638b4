import DarkroomChains
import DarkroomCore
import DarkroomPipeline
import DarkroomPlugins
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

/// A plugin's provider (the test plugin's `testfile:` scheme) under Darkroom's limits and policy.
@Suite("Plugin providers")
struct PluginProviderTests {
    static let directory = Result { try PluginTestKit.directory("providers") }

    /// The test plugin's provider, made on a small pool.
    private func provider() throws -> any DataProviding {
        let catalog = PluginTestKit.catalog(try Self.directory.get())
        let factory = try #require(catalog.providers.first { $0.schemes.contains("testfile") })
        let pool = BlockingWorkPool(threadCount: 2)
        return factory.make(ProviderPools(network: pool, files: pool))
    }

    private func policy(allowing: Bool = true, maxBytes: Int = 50 << 20, timeout: Double = 30, prefixes: [String] = []) -> SourcePolicy {
        var policy = SourcePolicy()
        if allowing { policy.allowedPluginSchemes = ["testfile"] }
        policy.maxBytes = maxBytes
        policy.totalTimeout = timeout
        policy.allowedSourcePrefixes = prefixes
        return policy
    }

    private func error(_ source: String, _ policy: SourcePolicy) async throws -> SourceError {
        let provider = try provider()
        do {
            _ = try await provider.fetch(SourceReference(source), policy: policy)
        } catch {
            return error
        }
        throw SourceError(.invalid, source: source, "fetched without an error")
    }

    @Test("A plugin's scheme is refused until the operator allows it with --allow-plugin-scheme")
    func refusedUntilAllowed() async throws {
        let refused = try await error("testfile:/etc/hostname", policy(allowing: false))
        #expect(refused.code == .refused)
        #expect(
            refused.message == "the 'testfile:' scheme comes from plugin module testkit 1.0.0; allow it with --allow-plugin-scheme testfile")
    }

    @Test("An allowed plugin provider streams a source's bytes through the host, and the pipeline decodes them")
    func fetchesThroughThePipeline() async throws {
        let scratch = try TestImages.makeDirectory("provider")
        let path = scratch + "/in.png"
        let bytes = try TestImages.gradient(.png, width: 300, height: 200)
        try TestImages.write(bytes, to: path)
        let fetched = try await provider().fetch(SourceReference("testfile:" + path), policy: policy())
        #expect(fetched.bytes == bytes)
        #expect(fetched.cacheKey == "testfile:" + path)

        var configuration = ImagePipeline.Configuration()
        let catalog = PluginTestKit.catalog(try Self.directory.get())
        configuration.providers = StandardProviders.factories + catalog.providers
        configuration.sourcePolicy = policy()
        let pipeline = ImagePipeline(configuration: configuration)
        let result = try await pipeline.retrieve(
            ImageRequest(source: SourceReference("TESTFILE:" + path), chain: try catalog.processors.chain(from: "shrink(4)")))
        #expect(result.size == PixelSize(width: 75, height: 50))
    }

    @Test("--allow-source still applies to a plugin's URLs, at a / boundary")
    func allowSourceApplies() async throws {
        let refused = try await error("testfile:/etc/hostname", policy(prefixes: ["testfile:/srv/images/"]))
        #expect(refused.code == .refused)
        #expect(refused.message == "is not under an allowed source prefix (testfile:/srv/images/); add one with --allow-source")
        #expect(try await error("testfile:/srv/imagesX/a.png", policy(prefixes: ["testfile:/srv/images"])).code == .refused)
        // Segments and escapes a provider could resolve outside the prefix are refused outright.
        for sneaky in ["testfile:/srv/images/../secret", "testfile:/srv/images/%2e%2e/secret", "testfile:/srv/images/a%2Fb"] {
            let error = try await error(sneaky, policy(prefixes: ["testfile:/srv/images/"]))
            #expect(error.code == .refused)
            #expect(error.message.hasSuffix("could resolve outside the allowed source prefixes; write the URL without it"))
        }
        // Allowed by the prefix: what fails now is the plugin not finding the file.
        #expect(try await error("testfile:/srv/images/a.png", policy(prefixes: ["testfile:/srv/images"])).code == .pluginFailed)
    }

    @Test("An allow-list of only plugin prefixes allows no http(s) URL")
    func pluginPrefixesDoNotOpenHTTP() throws {
        let list = try SourceAllowList(["testfile:/srv/images/"], pluginSchemes: ["testfile"])
        #expect(!list.isEmpty)
        #expect(throws: SourceURL.Problem.self) { try list.check(try SourceURL(parsing: "http://example.com/a.jpg")) }
    }

    @Test("The host stops a plugin that sends more than --max-source-mb")
    func sizeLimit() async throws {
        let tooLarge = try await error("testfile:endless", policy(maxBytes: 100_000))
        #expect(tooLarge.code == .tooLarge)
        #expect(tooLarge.message == "provider 'testfile:' (testkit 1.0.0) sent more than the source size limit of 100000 bytes (raise it with --max-source-mb)")
    }

    @Test("A plugin that blocks without calling back fails with source.timeout when the fetch timeout passes")
    func timeout() async throws {
        let timedOut = try await error("testfile:hang", policy(timeout: 0.2))
        #expect(timedOut.code == .timeout)
        #expect(timedOut.isTransient)
        // Normally the wait ends at the deadline; on a loaded machine the fetch may not even start
        // before it, and says so. Either way it is the same transient timeout.
        #expect(
            [
                "provider 'testfile:' (testkit 1.0.0) did not finish within 0.2 s (--fetch-timeout)",
                "provider 'testfile:' (testkit 1.0.0) could not start within 0.2 s (--fetch-timeout)",
            ].contains(timedOut.message), "\(timedOut.message)")
    }

    @Test("A provider's error is plugin.failed with its message, transient when the plugin says so")
    func providerErrors() async throws {
        let permanent = try await error("testfile:fail", policy())
        #expect(permanent.errorCode == "plugin.failed")
        #expect(!permanent.isTransient)
        #expect(permanent.message == "plugin provider 'testfile:' (testkit 1.0.0) failed: no such object: fail")
        let transient = try await error("testfile:busy", policy())
        #expect(transient.isTransient)
    }
}
