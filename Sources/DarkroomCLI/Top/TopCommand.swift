import ArgumentParser
import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis

/// `darkroom top`: a live view of the fleet, refreshed from the event stream.
struct TopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Watch the fleet live: throughput, latency, queues, workers, batches, failures.",
        discussion: """
            Follows the event stream from now on and redraws about once a second: jobs ended per \
            second over the last minute, start-to-end latency percentiles of the jobs that ended in \
            it, the queues, the live workers, the recently active batches (with a coordinator) and \
            the latest failures. On a terminal it uses the whole screen and restores it on exit \
            (Ctrl-C or SIGTERM); otherwise, or with --plain, it prints one summary line per refresh. \
            While Redis is unreachable it keeps retrying, and says so on every refresh with the \
            time of its last good read (in place of the summary line, or above the stale screen).

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Option(help: ArgumentHelp("Show this batch (repeatable); default: the recently active ones.", valueName: "name"))
    var batch: [String] = []

    @Option(help: ArgumentHelp("Seconds between refreshes.", valueName: "seconds"))
    var interval: Double = 1

    @Flag(help: "One summary line per refresh, even on a terminal.")
    var plain = false

    @Option(help: ArgumentHelp("Stop after this many refreshes.", valueName: "N"))
    var count: Int?

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func validate() throws {
        guard interval >= 0.1, interval <= 60 else { throw UsageFailure("--interval must be 0.1…60 seconds").validation }
        if let count, count < 1 { throw UsageFailure("--count must be at least 1").validation }
    }

    func run() async throws {
        Interruption.install()
        let fullScreen = !plain && Terminal.isTerminal(1)
        try await QueueCommandRunner.run(redis) { queue in
            let reader = FleetStatusReader(queue: queue, store: RedisCoordinatorStore(queue: queue))
            var model = TopModel()
            var cursor = try await queue.latestEventCursor()
            let period = Duration.milliseconds(Int64(interval * 1000))
            if fullScreen { Terminal.write("\u{1B}[?1049h\u{1B}[?25l", to: 1) }
            defer { if fullScreen { Terminal.write("\u{1B}[?25h\u{1B}[?1049l", to: 1) } }
            var frames = 0
            var outage = TopOutage()
            var lastStatus: FleetStatus?
            while !Interruption.isRequested {
                // Fold what arrives until the next refresh; the reads wait briefly so Ctrl-C acts fast.
                let deadline = ContinuousClock.now + period
                while ContinuousClock.now < deadline, !Interruption.isRequested {
                    let wait = min(deadline - ContinuousClock.now, .milliseconds(250))
                    do {
                        let page = try await queue.readEvents(after: cursor, limit: 1000, wait: max(wait, .zero))
                        for envelope in page { model.add(envelope.event) }
                        if let last = page.last { cursor = last.cursor }
                        outage.succeeded(at: .now())
                    } catch  where QueueCommandRunner.isUnreachable(error) {
                        // Ride out a Redis restart: say so on the screen, and resume after the
                        // last event seen (nothing is skipped or counted twice).
                        outage.failed(error, at: .now())
                        try? await Task.sleep(for: .milliseconds(500))
                    }
                }
                let now = Timestamp.now()
                model.expire(now: now)
                do {
                    lastStatus = try await reader.read(batches: batch.isEmpty ? nil : batch, now: now)
                    outage.succeeded(at: now)
                } catch  where QueueCommandRunner.isUnreachable(error) {
                    // Keep the last good picture, marked stale by the outage line, and keep retrying.
                    outage.failed(error, at: now)
                }
                let warning = outage.line(now: now)
                if fullScreen {
                    var lines = ["darkroom top · \(now.iso8601) · Ctrl-C to quit"]
                    if let lastStatus {
                        lines = TopScreen.frame(model: model, status: lastStatus, now: now, width: Terminal.width(of: 1))
                    }
                    if let warning { lines.insert(contentsOf: ["", "!! " + warning], at: 1) }
                    Terminal.write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"), to: 1)
                } else if let warning {
                    StandardOutput.line("\(now.iso8601) \(warning)")
                } else if let lastStatus {
                    StandardOutput.line(TopScreen.summary(model: model, status: lastStatus, now: now))
                }
                frames += 1
                if let count, frames >= count { break }
            }
        }
    }
}
