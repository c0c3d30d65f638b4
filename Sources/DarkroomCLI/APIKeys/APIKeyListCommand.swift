import ArgumentParser
import DarkroomAPIKeys

/// `darkroom api-key list [--json]`.
struct APIKeyListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show every API key, oldest first, revoked ones too.",
        discussion: """
            One line each: ID, live or revoked=TIME, name, scopes, grants, rate limit and creation \
            time; a count on standard error. --json prints one record per line. Never a token or \
            its hash.

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await APIKeyCommandRunner.run(redis) { store in
            let keys = try await store.list()
            for key in keys { StandardOutput.line(json ? try JSONText.line(key) : APIKeyFormatting.line(key)) }
            if !json {
                let revoked = keys.filter { !$0.isLive }.count
                StandardError.line("\(keys.count) API key\(keys.count == 1 ? "" : "s")\(revoked > 0 ? " (\(revoked) revoked)" : "")")
            }
        }
    }
}
