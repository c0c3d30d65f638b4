import Glibc

/// Writes lines to file descriptor 2. (The C `stderr` global is not concurrency-safe in Swift 6;
/// a `write(2, …)` of one whole line is atomic enough for messages from parallel tasks.)
enum StandardError {
    static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// Writes whole lines to standard output with one `write` each, so lines printed by parallel
/// tasks never interleave.
enum StandardOutput {
    static func line(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
    }
}
