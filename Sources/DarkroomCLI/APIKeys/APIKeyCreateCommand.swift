import ArgumentParser
import DarkroomAPIKeys
import DarkroomQueue
import Foundation

/// `darkroom api-key create --name N --scope S… [grants] [--rate R --burst B] [--json]`.
struct APIKeyCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Make an API key and print its token, once.",
        discussion: """
            Prints the token, then a line describing the key and saying the token is not shown \
            again (Darkroom keeps only its SHA-256 hash). With --json, one object: the key's \
            record and `token`. Without --allow-source the key may name http:, https: and data: \
            sources; file sources and plugin schemes only when granted.

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Option(help: ArgumentHelp("A label for people (1–100 characters).", valueName: "name"))
    var name: String

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp("submit, read or admin (repeatable, or comma-separated). admin includes read.", valueName: "scope"))
    var scopes: [String] = []

    @Option(
        name: .customLong("allow-source"),
        help: ArgumentHelp(
            "A source the key may name (repeatable): a scheme (https:), a URL prefix (https://host/path/) or a directory (/srv/uploads). Default: http:, https:, data:.",
            valueName: "prefix"))
    var sources: [String] = []

    @Option(
        name: .customLong("allow-output"),
        help: ArgumentHelp("A directory the key's jobs may write their output under (repeatable). Default: none.", valueName: "dir"))
    var outputs: [String] = []

    @Option(
        name: .customLong("allow-webhook"),
        help: ArgumentHelp("A webhook endpoint the key may name (repeatable). Default: none.", valueName: "name"))
    var webhooks: [String] = []

    @Option(name: .customLong("max-priority"), help: ArgumentHelp("The highest priority: high, normal or low.", valueName: "priority"))
    var maxPriority: String = "normal"

    @Option(help: ArgumentHelp("Requests a second the key's bucket refills at.", valueName: "per-second"))
    var rate: Double = APIRateLimit.default.perSecond

    @Option(help: ArgumentHelp("The most requests at once (the bucket's size).", valueName: "requests"))
    var burst: Int = APIRateLimit.default.burst

    @Flag(help: "Print the key and its token as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        do {
            _ = try request()
        } catch {
            throw error.validation
        }
    }

    /// The key asked for, checked; a bad value is a usage failure.
    func request() throws(UsageFailure) -> APIKeyRequest {
        var parsed: Set<APIScope> = []
        for text in scopes.flatMap({ $0.split(separator: ",") }) {
            guard let scope = APIScope(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw UsageFailure("--scope must be submit, read or admin (got '\(EventFormatting.sanitized(String(text.prefix(40))))')")
            }
            parsed.insert(scope)
        }
        guard !parsed.isEmpty else { throw UsageFailure("give the key at least one --scope (submit, read, admin)") }
        guard let priority = JobPriority(rawValue: maxPriority.lowercased()) else {
            throw UsageFailure("--max-priority must be high, normal or low (got '\(EventFormatting.sanitized(String(maxPriority.prefix(40))))')")
        }
        let grants = APIKeyGrants(
            sources: sources.isEmpty ? APIKeyGrants.defaultSources : sources, outputs: outputs, webhooks: webhooks, maxPriority: priority)
        let request = APIKeyRequest(name: name, scopes: parsed, grants: grants, rateLimit: APIRateLimit(perSecond: rate, burst: burst))
        do {
            return try request.validated()
        } catch {
            throw UsageFailure(EventFormatting.sanitized(error.message))
        }
    }

    func run() async throws {
        let request: APIKeyRequest
        do {
            request = try self.request()
        } catch {
            throw error.exit()
        }
        try await APIKeyCommandRunner.run(redis) { store in
            let created = try await store.create(request)
            for line in try APIKeyFormatting.created(created, json: json) { StandardOutput.line(line) }
        }
    }
}
