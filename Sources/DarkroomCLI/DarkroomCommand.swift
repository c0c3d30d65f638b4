import ArgumentParser
import DarkroomSystem

/// `darkroom`: the root command. Each subcommand is one file in its own folder.
public struct DarkroomCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "darkroom",
        abstract: "A distributed image pipeline: decode, process with a chain of processors, encode.",
        discussion: """
            Chain syntax: name(args)|>name(args), e.g. "downsample(400x400)|>roundCorner(20)|>blackWhite".
            Run `darkroom plugins` to list every processor and its arguments.
            """,
        version: DarkroomBuild.version,
        subcommands: [
            ProcessCommand.self, RunCommand.self, EnqueueCommand.self, WorkerCommand.self, CoordinatorCommand.self, EventsCommand.self,
            WaitCommand.self, StatusCommand.self, TopCommand.self, CancelCommand.self, DeadLetterCommand.self, GetCommand.self,
            PluginsCommand.self, CacheCommand.self, HealthCommand.self, APICommand.self, APIKeyCommand.self, WebhookCommand.self,
        ]
    )

    public init() {}
}
