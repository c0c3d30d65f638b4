import DarkroomClient
import DarkroomEventStream
import DarkroomQueue
import Foundation

/// How the CLI prints events: one readable line each, or the stored JSON record.
///
/// Readable lines are `TIME TYPE key=value…` followed by what the type carries, e.g.
///
///     2025-03-01T12:34:56.789Z batchEnqueued batch=nightly count=10000
///     2025-03-01T12:34:57.012Z succeeded     batch=nightly job=0195… worker=w1:812 attempt=1 800x533 webp 41.2 KB cache=miss 38 ms → /out/cat.webp
///
/// (followed by `  blurhash …  color …` for a job that asked for placeholders)
///     2025-03-01T12:34:57.100Z failed        batch=nightly job=0195… worker=w1:812 attempt=2 source.timeout: … (will retry)
///
/// Everything that came from Redis is stripped of control characters before it reaches the
/// terminal: an error message or worker name must not be able to move the cursor or retitle it.
enum EventFormatting {
    /// The readable line for `event`.
    static func line(_ event: JobEvent) -> String {
        var parts = [event.at.iso8601, event.type.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)]
        if let batch = event.batch { parts.append("batch=" + quoted(batch)) }
        if let job = event.job { parts.append("job=" + quoted(job.rawValue)) }
        if let worker = event.worker { parts.append("worker=" + quoted(worker)) }
        if let attempt = event.attempt { parts.append("attempt=\(attempt)") }
        if let count = event.count { parts.append("count=\(count)") }
        if let result = event.result { parts.append(describe(result)) }
        if let error = event.error {
            var text = describe(error)
            if event.type == .failed { text += event.willRetry == true ? " (will retry)" : " (final)" }
            parts.append(text)
        }
        return parts.joined(separator: " ")
    }

    /// The event exactly as stored (compact JSON, keys sorted).
    static func json(_ event: JobEvent) throws -> String {
        String(decoding: try event.jsonData(), as: UTF8.self)
    }

    /// `800x533 webp 41.2 KB cache=miss 38 ms → /out/cat.webp`.
    static func describe(_ result: JobResult) -> String {
        var text = "\(result.width)x\(result.height) \(sanitized(result.format)) \(byteCount(result.bytes)) cache=\(result.cache.rawValue)"
        let stages = [result.ms.fetch, result.ms.decode, result.ms.process, result.ms.encode, result.ms.store].compactMap { $0 }
        if !stages.isEmpty { text += " \(milliseconds(stages.reduce(0, +))) ms" }
        if let output = result.output { text += " → " + sanitized(output) }
        // What a job that asked for placeholders came for (docs/placeholders.md).
        if let placeholders = result.placeholders { text += sanitized(PlaceholderOptions.summary(placeholders)) }
        return text
    }

    /// `code: message`, the message cut to 300 characters.
    static func describe(_ error: JobError) -> String {
        let message = error.message.count > 300 ? String(error.message.prefix(299)) + "…" : error.message
        return sanitized(error.code) + ": " + sanitized(message)
    }

    /// A gap the stream's trimming left: `the stream no longer holds the events after X (4 missing); next: Y`.
    static func describe(_ gap: EventGap) -> String {
        let missing = gap.missing.map { "\($0) missing" } ?? "some may be missing"
        return "the event stream no longer holds the events after \(sanitized(gap.after.rawValue)) (\(missing), trimmed); "
            + "reading on from \(sanitized(gap.before.rawValue))"
    }

    /// Events discarded because the reader fell behind (`--drop-when-behind`).
    static func describe(_ drop: EventDrop) -> String {
        "fell behind: dropped \(drop.count) event\(drop.count == 1 ? "" : "s") after \(sanitized(drop.after.rawValue)), "
            + "reading on from \(sanitized(drop.before.rawValue))"
    }

    /// `512 B`, `41.2 KB`, `3.4 MB` (1 KB = 1,024 bytes).
    static func byteCount(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    static func milliseconds(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        if value >= 10 { return String(Int(value.rounded())) }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `text` with spaces shown as is, but quoted when it holds a space or `"` so that
    /// `key=value` pairs stay splittable.
    static func quoted(_ text: String) -> String {
        let clean = sanitized(text)
        guard clean.contains(where: { $0 == " " || $0 == "\"" }) || clean.isEmpty else { return clean }
        return "\"" + clean.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `text` with every control character (C0, DEL, C1 — escape sequences, newlines, tabs)
    /// replaced by `?` (the client library's rule, so its messages and ours agree).
    static func sanitized(_ text: String) -> String {
        SafeText.sanitized(text)
    }
}
