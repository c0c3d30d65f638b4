import DarkroomQueue

/// The event log reader.
extension Coordinator {
    /// Opens the event log and appends page after page to it until shutdown. The log is opened
    /// here, by the one task that writes it, and closed when it stops.
    func followIntoLog(_ pages: SharedPages) async throws {
        guard let configuration = configuration.eventLog else { return }
        let log = try await EventLog.open(configuration: configuration)
        defer { log.close() }
        logger.info("event log open", metadata: ["file": "\(log.path)", "checkpoint": "\(log.checkpoint?.rawValue ?? "none")"])
        progress.withLock { $0.logCheckpoint = log.checkpoint }
        try await repeatUntilStopped("event log") {
            _ = try await append(try await pages.page(after: log.checkpoint ?? .start, for: "event log"), to: log)
        }
    }

    /// Reads one batch after the log's checkpoint (waiting up to `wait` for one), checks it for a
    /// gap and appends it. Returns how many events were appended.
    public func appendNextBatch(to log: EventLog, wait: Duration) async throws -> Int {
        try await append(
            try await queue.readEvents(after: log.checkpoint ?? .start, limit: max(configuration.batchSize, 1), wait: wait), to: log)
    }

    /// Checks `batch` (read right after the log's checkpoint) for a gap and appends it.
    private func append(_ batch: [EventEnvelope], to log: EventLog) async throws -> Int {
        // Without a store the log is the only reader, so it feeds the metrics.
        guard !batch.isEmpty else {
            if store == nil { metrics?.recordCaughtUp() }
            return 0
        }
        let gap = try await gap(after: log.checkpoint, in: batch, reader: "event log")
        try await log.append(batch, gap: gap)
        if store == nil { metrics?.record(batch) }
        progress.withLock {
            $0.logCheckpoint = log.checkpoint
            $0.eventsLogged += batch.count
            $0.logTrimPoint.record(batch)
        }
        return batch.count
    }

    /// The gap between `checkpoint` and the first event of `batch`, counted and logged as an error.
    func gap(after checkpoint: EventCursor?, in batch: [EventEnvelope], reader: String) async throws -> EventGap? {
        guard let checkpoint, let first = batch.first,
            let gap = try await StreamPosition.gap(
                after: checkpoint, first: first.cursor,
                oldestRetained: { try await self.queue.readEvents(after: .start, limit: 1, wait: .zero).first?.cursor })
        else { return nil }
        progress.withLock {
            $0.gaps += 1
            $0.eventsLost += gap.missing ?? 0
        }
        metrics?.recordGap(missing: gap.missing)
        logger.error(
            "the event stream no longer held events after the \(reader)'s checkpoint",
            metadata: [
                "after": "\(gap.after)", "before": "\(gap.before)", "missing": "\(gap.missing.map(String.init) ?? "unknown")",
            ])
        return gap
    }
}
