import DarkroomClient
import DarkroomQueue

/// A source as human output shows it: redacted as events are (credentials become `***`, a `data:`
/// URI its header and length), control characters made visible, and at most `limit` characters
/// with the middle elided, so one long URL cannot push the rest of a line off the screen. `--json`
/// records keep the source whole.
enum SourceDisplay {
    static func short(_ source: String, limit: Int = 100) -> String {
        let text = SafeText.sanitized(SourceRedaction.redact(source))
        guard text.count > limit, limit >= 20 else { return text }
        // Keep more of the end: the file name is what tells sources apart.
        let tail = limit * 2 / 3
        return String(text.prefix(limit - tail - 1)) + "…" + String(text.suffix(tail))
    }
}
