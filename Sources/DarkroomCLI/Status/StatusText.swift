import DarkroomFleetStatus
import DarkroomQueue

/// `darkroom status` for people: a few aligned sections.
enum StatusText {
    static func render(_ status: FleetStatus) -> String {
        var lines: [String] = []
        lines.append("Queue      ready   waited")
        for priority in JobPriority.allCases.sorted() {
            let queue = status.queues[priority.rawValue]
            let ready = queue?.ready ?? 0
            let lag = queue?.lagSeconds.map { EventFormatting.milliseconds($0) + " s" } ?? "-"
            lines.append("  " + pad(priority.rawValue, 8) + leftPad(String(ready), 6) + "   " + lag)
        }
        lines.append("In flight \(status.inFlight) · delayed \(status.delayed) · dead letters \(status.deadLetters)")

        lines.append("")
        let dead = status.deadWorkers ?? []
        lines.append("Workers (\(status.workers.count) live" + (dead.isEmpty ? ")" : ", \(dead.count) dead holding jobs)"))
        if status.workers.isEmpty && dead.isEmpty { lines.append("  none") }
        for worker in status.workers {
            var line = "  \(EventFormatting.sanitized(worker.name)) · concurrency \(worker.concurrency) · jobs done \(worker.jobsDone)"
            if let current = worker.currentJobs { line += " · running \(current)" }
            if let errors = worker.errors { line += " · errors \(errors)" }
            let modules = worker.modules.filter { !$0.key.hasPrefix("standard") }.sorted { $0.key < $1.key }
            if !modules.isEmpty { line += " · plugins " + modules.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
            lines.append(line)
        }
        // A dead worker's jobs wait for a live worker to reclaim them: say so, or the jobs
        // look lost. The projections count them per worker and keep no ids.
        for worker in dead {
            let jobs = worker.abandonedJobs == 1 ? "1 job" : "\(worker.abandonedJobs) jobs"
            var line = "  \(EventFormatting.sanitized(worker.name)) · dead · \(jobs) abandoned until a live worker reclaims them"
            if let seen = worker.lastEventAt { line += " · last seen \(seen.iso8601)" }
            lines.append(line)
        }

        if !status.batches.isEmpty || status.coordinator != nil {
            lines.append("")
            lines.append("Batches")
            if status.batches.isEmpty { lines.append("  none recently") }
        }
        for batch in status.batches {
            let ended = batch.succeeded + batch.failed + batch.dead + batch.cancelled
            var line =
                "  \(EventFormatting.sanitized(batch.name)): \(ended)/\(batch.total) ended (succeeded \(batch.succeeded), failed \(batch.failed), dead \(batch.dead), cancelled \(batch.cancelled))"
            if let running = batch.running { line += " · running \(running)" }
            if let queued = batch.queued { line += " · queued \(queued)" }
            if let p50 = batch.p50Ms, let p95 = batch.p95Ms {
                line += " · p50 \(EventFormatting.milliseconds(p50)) ms · p95 \(EventFormatting.milliseconds(p95)) ms"
            }
            lines.append(line)
        }

        if let failures = status.failures, !failures.isEmpty {
            lines.append("")
            lines.append("Recent failures")
            for failure in failures.prefix(5) {
                var line = "  \(failure.at.iso8601) \(EventFormatting.sanitized(failure.code))"
                if let job = failure.job { line += " job=\(EventFormatting.sanitized(job))" }
                if let worker = failure.worker { line += " worker=\(EventFormatting.sanitized(worker))" }
                line += ": " + EventFormatting.sanitized(failure.message) + (failure.willRetry ? " (will retry)" : "")
                lines.append(line)
            }
        }

        lines.append("")
        if let ended = status.jobsEndedLastMinute {
            lines.append("Throughput: \(ended) jobs ended in the last minute (\(ProgressBar.formatRate(Double(ended) / 60))/s)")
        }
        if let coordinator = status.coordinator {
            var line = "Coordinator: "
            line += coordinator.leaseHolder.map { "\(EventFormatting.sanitized($0)) leads" } ?? "registered, none running"
            if let lag = coordinator.lagSeconds { line += " · \(EventFormatting.milliseconds(lag)) s behind the newest event" }
            lines.append(line)
        } else {
            lines.append(
                "No coordinator is registered: recent batches, running and queued jobs, durations, worker errors and throughput need one (darkroom coordinator)."
            )
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
