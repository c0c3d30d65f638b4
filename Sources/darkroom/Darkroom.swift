import ArgumentParser
import DarkroomCLI

/// The `darkroom` executable: the command tree lives in `DarkroomCLI`, so tests can drive it.
/// `@main` on the async command (rather than `await main()` in a main.swift) makes
/// swift-argument-parser take its async entry point, which runs async subcommands.
@main
extension DarkroomCommand {}
