import ArgumentParser
import DarkroomQueue
import Foundation

/// `darkroom dlq list | retry | purge`: the dead-letter queue.
struct DeadLetterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dlq",
        abstract: "List, retry or purge dead-lettered jobs.",
        discussion: """
            A job lands in the dead-letter queue when its retries run out (transient errors), when it \
            was delivered maxAttempts times without any worker finishing it (workers died), or when \
            its record is of a version no worker understood; entries that are not job records at all \
            land there too. Each entry keeps the job as queued and its last error.
            """,
        subcommands: [DeadLetterListCommand.self, DeadLetterRetryCommand.self, DeadLetterPurgeCommand.self],
        defaultSubcommand: DeadLetterListCommand.self
    )
}

/// `darkroom dlq list [--limit N] [--after ENTRY-ID] [--json]`.
struct DeadLetterListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show dead letters, oldest first.",
        discussion: """
            One line each: ENTRY-ID TIME job= batch= attempt= source= CODE: MESSAGE (ENTRY-ID is what \
            `dlq retry` takes; a job id works too). --json prints one object per line: id, at, error \
            {code, message}, and job (the job record) or, for garbage, payload (the raw entry).
            """
    )

    @Option(help: "Show at most this many.")
    var limit: Int = 100

    @Option(help: ArgumentHelp("Show the dead letters after this entry (the last ENTRY-ID a previous list showed).", valueName: "entry-id"))
    var after: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        guard (1...1_000_000).contains(limit) else { throw UsageFailure("--limit must be 1…1000000").validation }
    }

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            let letters = try await queue.deadLetters(after: after, limit: limit)
            let total = try await queue.counts().deadLettered
            for letter in letters {
                StandardOutput.line(json ? try DeadLetterFormatting.json(letter) : DeadLetterFormatting.line(letter))
            }
            if !json {
                let note =
                    after != nil || total > letters.count
                    ? "\(letters.count) of \(total) dead letters shown (--limit, --after)" : "\(total) dead letter\(total == 1 ? "" : "s")"
                StandardError.line(note)
            }
        }
    }
}

/// `darkroom dlq retry [--all | ID…]`.
struct DeadLetterRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue dead letters again as fresh first attempts.",
        discussion: """
            Takes dead-letter entry ids (from `dlq list`) or job ids. Each job goes back into its \
            batch (which counts it as unfinished again, so `wait` waits for it) and ends with a new \
            terminal event. Garbage entries stay: there is no job to run. Prints how many were queued.
            """
    )

    @Argument(help: "Dead-letter entry ids or job ids.")
    var ids: [String] = []

    @Flag(help: "Retry every dead letter.")
    var all = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    /// How many dead letters are searched when job ids are given.
    static let searchLimit = 1_000_000

    func validate() throws {
        if all == !ids.isEmpty { throw UsageFailure(all ? "give --all or ids, not both" : "name dead letters to retry, or --all").validation }
    }

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            if all {
                let count = try await queue.retryDeadLetters(ids: nil)
                StandardOutput.line("requeued \(count) dead letter\(count == 1 ? "" : "s")")
                return
            }
            if ids.allSatisfy(EventStart.isEventID) {
                // Entry ids only: no need to read the dead-letter queue to resolve job ids.
                let count = try await queue.retryDeadLetters(ids: ids)
                StandardOutput.line("requeued \(count) dead letter\(count == 1 ? "" : "s")")
                if count < Set(ids).count {
                    StandardError.line(
                        "darkroom: \(Set(ids).count - count) of the ids are not in the dead-letter queue (or are garbage, which cannot be retried)")
                    throw QueueExit.failed
                }
                return
            }
            let letters = try await queue.deadLetters(limit: Self.searchLimit)
            let (entries, missing) = DeadLetterFormatting.resolve(ids, in: letters)
            for id in missing { StandardError.line("darkroom: '\(EventFormatting.sanitized(id))' is not in the dead-letter queue") }
            let count = entries.isEmpty ? 0 : try await queue.retryDeadLetters(ids: entries)
            StandardOutput.line("requeued \(count) dead letter\(count == 1 ? "" : "s")")
            if !missing.isEmpty { throw QueueExit.failed }
        }
    }
}

/// `darkroom dlq purge [--yes]`.
struct DeadLetterPurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Delete every dead letter.",
        discussion: "Asks first on a terminal; elsewhere it needs --yes. Their batches still count them as dead."
    )

    @Flag(help: "Do not ask.")
    var yes = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await QueueCommandRunner.run(redis) { queue in
            if !yes {
                let total = try await queue.counts().deadLettered
                guard total > 0 else {
                    StandardOutput.line("purged 0 dead letters")
                    return
                }
                guard Terminal.isTerminal(0), Terminal.isTerminal(2) else {
                    throw UsageFailure("refusing to delete \(total) dead letter\(total == 1 ? "" : "s") without --yes")
                }
                Terminal.write("Delete \(total) dead letter\(total == 1 ? "" : "s") for good? [y/N] ", to: 2)
                guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    StandardError.line("nothing deleted")
                    throw QueueExit.failed
                }
            }
            let count = try await queue.purgeDeadLetters()
            StandardOutput.line("purged \(count) dead letter\(count == 1 ? "" : "s")")
        }
    }
}

/// Printing dead letters, and finding them by entry or job id.
enum DeadLetterFormatting {
    static func line(_ letter: DeadLetter) -> String {
        var parts = [EventFormatting.sanitized(letter.id), letter.at.iso8601]
        if let job = letter.job {
            parts += [
                "job=" + EventFormatting.quoted(job.id.rawValue), "batch=" + EventFormatting.quoted(job.batch),
                "attempt=\(job.attempt)", "source=" + EventFormatting.quoted(String(job.source.prefix(200))),
            ]
        } else {
            parts.append("(not a readable job: \(letter.payload.count) bytes)")
        }
        parts.append(EventFormatting.describe(letter.error))
        return parts.joined(separator: " ")
    }

    /// `{"at","error":{"code","message"},"id","job":{…}}`, or `"payload"` (the raw entry as text)
    /// instead of `job` for garbage.
    static func json(_ letter: DeadLetter) throws -> String {
        struct Record: Encodable {
            var id: String
            var at: Timestamp
            var error: JobError
            var job: Job?
            var payload: String?
        }
        let record = Record(
            id: letter.id, at: letter.at, error: letter.error, job: letter.job,
            payload: letter.job == nil ? String(decoding: letter.payload, as: UTF8.self) : nil)
        return try JSONText.line(record)
    }

    /// The entry ids `ids` name (each an entry id or a job id), and the ids that name nothing.
    static func resolve(_ ids: [String], in letters: [DeadLetter]) -> (entries: [String], missing: [String]) {
        var byEntry: Set<String> = []
        var byJob: [String: [String]] = [:]
        for letter in letters {
            byEntry.insert(letter.id)
            if let job = letter.job { byJob[job.id.rawValue, default: []].append(letter.id) }
        }
        var entries: [String] = []
        var missing: [String] = []
        for id in ids {
            if byEntry.contains(id) {
                entries.append(id)
            } else if let found = byJob[id] {
                entries += found
            } else {
                missing.append(id)
            }
        }
        var unique: Set<String> = []
        return (entries.filter { unique.insert($0).inserted }, missing)
    }
}
