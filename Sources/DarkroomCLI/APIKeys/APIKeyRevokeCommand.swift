import ArgumentParser
import DarkroomAPIKeys

/// `darkroom api-key revoke ID [--json]`.
struct APIKeyRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke an API key: every API process refuses it within 5 s.",
        discussion: """
            The key stays listed, with the time it was revoked; revoking it again changes nothing. \
            Its rate-limit bucket is deleted.

            Exit status: 0, 1 no key has that id, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Argument(help: "The key's id (dk_ and 8 letters and digits), as `api-key list` shows it.")
    var id: String

    @Flag(help: "Print the revoked key's record as JSON.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        guard APIKeyToken.isKeyID(id) else {
            throw UsageFailure("'\(EventFormatting.sanitized(String(id.prefix(40))))' is not an API key id (dk_ and 8 letters and digits)").validation
        }
    }

    func run() async throws {
        try await APIKeyCommandRunner.run(redis) { store in
            let before = try await store.key(id: id)
            guard let before, let revoked = try await store.revoke(id: id) else {
                StandardError.line("darkroom: \(APIKeyError(.unknown, "no API key \(id) (`darkroom api-key list` shows the ids)"))")
                throw QueueExit.failed
            }
            if json {
                StandardOutput.line(try JSONText.line(revoked))
            } else if let at = before.revokedAt {
                StandardOutput.line("API key \(id) was already revoked at \(at.iso8601)")
            } else {
                StandardOutput.line("revoked API key \(id) (\(EventFormatting.quoted(revoked.name))): every API process refuses it within 5 s")
            }
        }
    }
}
