import DarkroomEventStream
import DarkroomQueue
import DarkroomSystem
import Foundation

/// Follows the events of an embedded run until every job has its terminal event: draws the
/// progress bar, reports failures, prints `--json` records, and the summary at the end.
struct RunReporter: Sendable {
    /// What became of the jobs.
    struct Outcome: Sendable {
        var succeeded = 0
        /// Succeeded jobs whose result was already in the memory or disk cache.
        var fromCache = 0
        var failed = 0
        var elapsed: Duration = .zero
    }

    let sources: [JobID: String]
    let batch: String
    let total: Int
    let json: Bool
    let outputDirectory: String
    let bar: ProgressBar

    init(jobs: [Job], json: Bool, outputDirectory: String) {
        sources = Dictionary(jobs.map { ($0.id, $0.source) }, uniquingKeysWith: { first, _ in first })
        batch = jobs.first?.batch ?? "run"
        total = sources.count
        self.json = json
        self.outputDirectory = outputDirectory
        bar = ProgressBar(total: total, title: "run")
    }

    /// Follows the queue's events after `cursor` until every job has ended.
    func follow(_ queue: any JobQueueDriver & ProgressReportingQueue, after cursor: EventCursor) async throws -> Outcome {
        let start = ContinuousClock.now
        var ended = Set<JobID>()
        var outcome = Outcome()
        let encoder = RecordJSON.encoder()
        guard total > 0 else {
            bar.finish()
            return outcome
        }
        let events = queue.eventSource(from: .after(cursor), configuration: EventSource.Configuration(pageSize: 1024, idleNotices: true))
        var complete = false
        for try await item in events {
            switch item {
            case .event(let envelope):
                let event = envelope.event
                guard event.batch == batch, event.isTerminal, let id = event.job, ended.insert(id).inserted else { continue }
                let source = sources[id] ?? id.rawValue
                if event.type == .succeeded {
                    outcome.succeeded += 1
                    if let cache = event.result?.cache, cache != .miss { outcome.fromCache += 1 }
                    if !json, let result = event.result {
                        for line in Self.objectLines(source: source, result: result) { bar.message(line) }
                        for line in Self.placeholderLines(source: source, result: result) { bar.message(line) }
                    }
                } else {
                    outcome.failed += 1
                    if let error = event.error {
                        // The event's message names the source redacted (`SourceRedaction`), if at all.
                        let namesSource = error.message.hasPrefix(source) || error.message.hasPrefix(SourceRedaction.redact(source))
                        let message = namesSource ? error.message : "\(SourceDisplay.short(source)): \(error.message)"
                        bar.message("darkroom: \(message) [\(error.code)]")
                    }
                }
                if json {
                    let record = ImageRecord(
                        attempt: event.attempt, error: event.error, id: id.rawValue, result: event.result, source: source,
                        status: event.type.rawValue)
                    if let data = try? encoder.encode(record) { StandardOutput.line(String(decoding: data, as: UTF8.self)) }
                }
                bar.update(finished: ended.count, failed: outcome.failed)
            case .idle, .gap:
                // Events are retained generously, but if some were trimmed the batch counters still
                // know the end: they are updated atomically with each terminal event.
                if let progress = try await queue.batchProgress(batch), progress.isComplete, ended.count < total {
                    outcome.succeeded = progress.succeeded
                    outcome.failed = progress.finished - progress.succeeded
                    complete = true
                }
            case .dropped:
                break  // Not with the default back-pressure policy.
            }
            if complete || ended.count >= total { break }
        }
        bar.finish()
        outcome.elapsed = ContinuousClock.now - start
        return outcome
    }

    /// `SOURCE → OUTPUT  blurhash B  thumbhash T  color C` for each output with placeholders (a
    /// job that asked for them): they are what the caller came for.
    static func placeholderLines(source: String, result: JobResult) -> [String] {
        let outputs =
            result.renditions.map { $0.map { ($0.output, $0.placeholders) } } ?? [(result.output, result.placeholders)]
        return outputs.compactMap { output, placeholders in
            guard placeholders != nil else { return nil }
            return "\(SourceDisplay.short(source)) → \(output ?? "?")" + PlaceholderOptions.summary(placeholders)
        }
    }

    /// `SOURCE → s3://BUCKET/KEY  ETag E` for each output stored as an object: a bucket's outputs
    /// are listed one by one, since their ETags are news (a directory's files are not listed).
    static func objectLines(source: String, result: JobResult) -> [String] {
        let outputs = result.renditions.map { $0.map { ($0.output, $0.etag) } } ?? [(result.output, result.etag)]
        return outputs.compactMap { output, etag in
            guard let output, let etag else { return nil }
            return "\(SourceDisplay.short(source)) → \(output)  ETag \(etag)"
        }
    }

    /// `run: 98 succeeded, 2 failed of 100 in 3.21 s (31.2/s) → DIR` (or the bucket prefix) on standard output, or on
    /// standard error when standard output carries `--json` records; `, 40 from the cache` after the
    /// rate when results were found already computed.
    func printSummary(_ outcome: Outcome) {
        let seconds = outcome.elapsed.inSeconds
        let rate = seconds > 0 ? Double(total) / seconds : 0
        var line = "run: \(outcome.succeeded) succeeded"
        if outcome.failed > 0 { line += ", \(outcome.failed) failed" }
        line += " of \(total) in " + String(format: "%.2f s (%.1f/s)", seconds, rate)
        if outcome.fromCache > 0 { line += ", \(outcome.fromCache) from the cache" }
        line += " → " + outputDirectory
        if json { StandardError.line(line) } else { StandardOutput.line(line) }
    }
}
