import DarkroomQueueContract

/// Random text for the hand-written JSON writers' tests: everything JSON must escape, slashes,
/// multi-byte UTF-8 and line separators.
enum AwkwardText {
    static let alphabet: [String] = [
        "a", "Z", "0", " ", "/", "\\", "\"", "\n", "\r", "\t", "\u{08}", "\u{0C}",
        "\u{00}", "\u{01}", "\u{1F}", "\u{7F}", "é", "😀", "\u{2028}", "\u{FEFF}", ":", ",", "{",
    ]

    /// A string of `length` pieces; without `allowControl`, control characters become `x` (ids and
    /// batch names refuse them).
    static func make(_ random: inout QueueContractRandom, allowControl: Bool = true, length: ClosedRange<Int> = 1...24) -> String {
        var result = ""
        for _ in 0..<Int.random(in: length, using: &random) {
            var piece = alphabet.randomElement(using: &random) ?? "a"
            if !allowControl, piece.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) { piece = "x" }
            result += piece
        }
        return result
    }
}
