import DarkroomCache
import DarkroomRedis
import DarkroomSources

/// The small parsers of text people and configuration write, chosen by the first byte: source URLs
/// (whose normal form must parse back to itself), IP addresses (likewise), `redis://` URLs, and the
/// cache's sizes and durations. Every input is also redacted as a job's source (`RedactionProperty`).
enum TextParsersFuzz {
    static let target = FuzzTarget(
        name: "text",
        summary: "source URLs and IP addresses (normal forms round-trip), redis:// URLs, sizes and durations; source redaction"
    ) { bytes in
        guard let selector = bytes.first else { return }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
        // Every input, whatever it selects: redaction takes any text, and is cheap (one pass).
        RedactionProperty.check(text)
        switch selector % 5 {
        case 0:
            guard let url = try? SourceURL(parsing: text) else { return }
            do throws(SourceURL.Problem) {
                let again = try SourceURL(parsing: url.serialized)
                if again != url {
                    FuzzFailure.stop("text", "\(text.debugDescription) → \(url.serialized.debugDescription) → \(again.serialized.debugDescription)")
                }
            } catch {
                FuzzFailure.stop("text", "\(text.debugDescription) normalises to \(url.serialized.debugDescription), which does not parse: \(error.message)")
            }
        case 1:
            guard let address = IPAddress(text) else { return }
            if IPAddress(address.description) != address {
                FuzzFailure.stop("text", "the address \(text.debugDescription) prints \(address.description.debugDescription), which reads back differently")
            }
        case 2:
            _ = try? RedisURL(text)
        case 3:
            if let size = try? ByteCountText.parse(text), size < 0 {
                FuzzFailure.stop("text", "the size \(text.debugDescription) read as \(size)")
            }
        default:
            if let duration = try? DurationText.parse(text), duration < .zero {
                FuzzFailure.stop("text", "the duration \(text.debugDescription) read as \(duration)")
            }
        }
    }
}
