import DarkroomSystem
import Glibc

/// What the CLI needs to know about the terminal: whether a descriptor is one, and its width.
enum Terminal {
    /// Whether `descriptor` is a terminal (progress bars and prompts only make sense on one).
    static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The width of the terminal on `descriptor` in columns; `COLUMNS`, then 80, when unknown.
    static func width(of descriptor: Int32) -> Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS"), let columns = Int(String(cString: text)), columns > 0 { return columns }
        return 80
    }

    /// Writes `text` to `descriptor` as one `write` (no newline added), retrying short writes.
    static func write(_ text: String, to descriptor: Int32) {
        // A failed write is dropped: there is nowhere left to report it.
        _ = Array(text.utf8).withUnsafeBytes { SystemCall.writeAll(descriptor, $0) }
    }
}
