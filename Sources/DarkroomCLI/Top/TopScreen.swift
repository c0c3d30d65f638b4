import DarkroomFleetStatus
import DarkroomQueue

/// Renders `darkroom top`: a full screen for a terminal, or one summary line for a pipe.
enum TopScreen {
    static func frame(model: TopModel, status: FleetStatus, now: Timestamp, width: Int) -> [String] {
        let rates = model.perSecond(now: now)
        let lastTen = rates.suffix(10).reduce(0, +)
        var lines: [String] = []
        lines.append("darkroom top · \(now.iso8601) · Ctrl-C to quit")
        lines.append("")
        lines.append("Throughput  \(ProgressBar.formatRate(Double(lastTen) / 10))/s (last 10 s) · \(rates.reduce(0, +)) jobs in the last minute")
        lines.append("  " + sparkline(rates))
        let latency = [("p50", 0.5), ("p95", 0.95), ("p99", 0.99)].map { name, q in
            "\(name) " + (model.quantile(q).map(milliseconds) ?? "-")
        }
        lines.append("Latency     last attempt start → end: " + latency.joined(separator: " · "))
        lines.append("")
        let queues = JobPriority.allCases.sorted().map { priority -> String in
            let queue = status.queues[priority.rawValue]
            let lag = queue?.lagSeconds.map { " (waited \(EventFormatting.milliseconds($0)) s)" } ?? ""
            return "\(priority.rawValue) \(queue?.ready ?? 0)\(lag)"
        }
        lines.append("Queue       " + queues.joined(separator: " · "))
        lines.append("            in flight \(status.inFlight) · delayed \(status.delayed) · dead letters \(status.deadLetters)")
        lines.append("")
        lines.append("Workers (\(status.workers.count))")
        for worker in status.workers.prefix(12) {
            var line = "  " + EventFormatting.sanitized(worker.name)
            line += " · \(worker.currentJobs.map { "\($0)/" } ?? "")\(worker.concurrency) busy · \(worker.jobsDone) done"
            if let errors = worker.errors { line += " · \(errors) errors" }
            lines.append(line)
        }
        if status.workers.count > 12 { lines.append("  … and \(status.workers.count - 12) more") }
        for worker in (status.deadWorkers ?? []).prefix(6) {
            let seen = worker.lastEventAt.map { " · last seen \($0.iso8601)" } ?? ""
            lines.append("  " + EventFormatting.sanitized(worker.name) + " · dead · \(worker.abandonedJobs) abandoned until reclaimed" + seen)
        }
        if !status.batches.isEmpty {
            lines.append("")
            lines.append("Batches")
            for batch in status.batches.prefix(8) {
                let ended = batch.succeeded + batch.failed + batch.dead + batch.cancelled
                let share = batch.total > 0 ? Double(ended) / Double(batch.total) : 1
                var line = "  " + bar(share, width: 20) + " \(ended)/\(batch.total) " + EventFormatting.sanitized(batch.name)
                if let running = batch.running { line += " · running \(running)" }
                let failed = batch.failed + batch.dead
                if failed > 0 { line += " · failed \(failed)" }
                lines.append(line)
            }
        }
        lines.append("")
        lines.append("Recent failures")
        if model.failures.isEmpty { lines.append("  none") }
        for failure in model.failures.reversed().prefix(6) {
            lines.append(
                "  \(failure.at.iso8601) \(failure.code) job=\(EventFormatting.sanitized(failure.job))"
                    + (failure.final ? "" : " (will retry)") + ": " + EventFormatting.sanitized(failure.message))
        }
        if status.coordinator == nil { lines.append("(no coordinator: batches and per-worker counts need one)") }
        return lines.map { clip($0, to: width) }
    }

    /// One line per refresh when standard output is not a terminal.
    static func summary(model: TopModel, status: FleetStatus, now: Timestamp) -> String {
        let lastTen = model.perSecond(now: now).suffix(10).reduce(0, +)
        let ready = status.queues.values.reduce(0) { $0 + $1.ready }
        return "\(now.iso8601) \(ProgressBar.formatRate(Double(lastTen) / 10)) jobs/s p50=\(model.quantile(0.5).map(milliseconds) ?? "-") "
            + "p95=\(model.quantile(0.95).map(milliseconds) ?? "-") ready=\(ready) inFlight=\(status.inFlight) "
            + "workers=\(status.workers.count) failures=\(model.failures.count)"
    }

    static func sparkline(_ values: [Int]) -> String {
        let levels = Array("▁▂▃▄▅▆▇█")
        let top = max(values.max() ?? 0, 1)
        return String(values.map { $0 == 0 ? " " : levels[min((($0 * levels.count) - 1) / top, levels.count - 1)] })
    }

    static func bar(_ share: Double, width: Int) -> String {
        let filled = Int((min(max(share, 0), 1) * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    private static func clip(_ line: String, to width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(width - 1, 1))) + "…"
    }

    private static func milliseconds(_ value: Double) -> String {
        value < 1000 ? "\(Int(value.rounded())) ms" : "\(ProgressBar.formatRate(value / 1000)) s"
    }
}
