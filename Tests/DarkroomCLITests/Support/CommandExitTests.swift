import ArgumentParser
import Foundation
import Testing

@testable import DarkroomCLI

/// The one exit-status rule (docs/cli.md, "Exit status"), checked on the built `darkroom` binary:
/// usage mistakes exit 2 whoever finds them, and `--help` prints only the help.
@Suite("Exit status and help: the darkroom binary")
struct CommandExitTests {
    typealias Kit = QueueCLITestKit

    /// Runs `darkroom arguments…` with a Redis URL nothing listens on, so a command that got past
    /// its usage checks fails at once (3) instead of finding a server.
    /// Runs in a fresh directory, so nothing a command might write lands in the test's.
    static func run(_ arguments: [String]) throws -> Kit.Run {
        let directory = try Kit.makeDirectory("exit")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try Kit.run(arguments, redis: "redis://127.0.0.1:1", prefix: "exit-test", directory: directory)
    }

    @Test("An unknown flag exits 2 on every kind of command, saying which flag, with the command's usage")
    func unknownFlag() throws {
        let commands: [[String]] = [
            ["process", "a.jpg", "-o", "b.jpg"], ["run", "a.jpg", "--out", "o"], ["enqueue", "a.jpg"], ["wait", "b"],
            ["cancel", "b"], ["get", "j", "-o", "x"], ["dlq", "list"], ["cache", "stats"], ["status"],
        ]
        for command in commands {
            let run = try Self.run(command + ["--no-such-flag"])
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.error.hasPrefix("darkroom: Unknown option '--no-such-flag'"), "\(command): \(run.error)")
            #expect(run.error.contains("Usage: darkroom \(command[0])"), "\(command): \(run.error)")
            #expect(run.output.isEmpty)
        }
        let missing = try Self.run(["wait"])
        #expect(missing.status == 2, "\(missing.error)")
        let wrongType = try Self.run(["wait", "b", "--timeout", "soon"])
        #expect(wrongType.status == 2, "\(wrongType.error)")
    }

    /// (`enqueue`'s bad chain, which needs a Redis to ask the workers, is checked against a real
    /// one in `QueueCommandProcessRealTimeTests`.)
    @Test("A bad chain exits 2 before any image is read, for process and run")
    func badChain() throws {
        for command in [["process", "missing.jpg", "-o", "out.jpg"], ["run", "missing.jpg", "--out", "out"]] {
            let run = try Self.run(command + ["-p", "blur(2)|>"])
            #expect(run.status == 2, "\(command): \(run.error)")
            #expect(run.error.contains("chain"), "\(command): \(run.error)")
        }
    }

    @Test("Usage mistakes a command's own checks find exit 2 too, also for wait (64 before)")
    func commandChecks() throws {
        let cases: [[String]] = [
            ["wait", "b", "--timeout", "-1"], ["cancel"], ["cancel", "b", "--job", "j"], ["dlq", "retry"], ["top", "--interval", "0"],
            ["status", "--job", "j", "--batch", "b"], ["events", "--drop-when-behind", "5"],
            ["api", "--header-timeout", "0"], ["api", "--body-timeout", "7200"],
            ["coordinator", "--webhook-max-pending", "0"], ["coordinator", "--webhook-max-pending-per-key", "0"],
        ]
        for arguments in cases {
            let run = try Self.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.error)")
            #expect(run.error.hasPrefix("darkroom: "), "\(arguments): \(run.error)")
        }
    }

    @Test("--help prints only the help, exit 0, for every command and subcommand, even when its arguments are incomplete")
    func helpOnly() throws {
        var commands: [[String]] = [[]]
        for command in DarkroomCommand.configuration.subcommands {
            let name = command._commandName
            commands.append([name])
            commands += command.configuration.subcommands.map { [name, $0._commandName] }
        }
        #expect(commands.count > 15)
        for command in commands {
            let run = try Self.run(command + ["--help"])
            #expect(run.status == 0, "\(command): \(run.error)")
            #expect(run.error.isEmpty, "\(command): \(run.error)")
            #expect(run.output.hasPrefix("OVERVIEW: "), "\(command): \(run.output.prefix(200))")
        }
        // The case reported: cancel's check (a batch or --job) used to print before its help.
        let cancel = try Self.run(["cancel", "--help"])
        #expect(!cancel.output.contains("name a batch") && !cancel.error.contains("name a batch"))
        #expect(CommandExit.status(for: .validationFailure) == QueueExit.usage)
        #expect(CommandExit.status(for: QueueExit.timedOut).rawValue == 124)
    }
}
