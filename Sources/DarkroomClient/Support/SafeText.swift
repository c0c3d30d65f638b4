/// Text that came from outside (a job list, Redis, a worker's error message) made safe to show on
/// a terminal: an error message or worker name must not be able to move the cursor or retitle it.
public enum SafeText {
    /// `text` with every control character (C0, DEL, C1 — escape sequences, newlines, tabs)
    /// replaced by `?`.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? "?" : scalar) }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
