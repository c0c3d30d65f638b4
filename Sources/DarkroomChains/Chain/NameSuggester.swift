/// Finds the known name a typo most likely meant ("rond" → "roundCorner").
public enum NameSuggester {
    /// The closest of `candidates` to `typed`, or nil when none is close enough to be a typo.
    ///
    /// Closeness is the edit distance, case-insensitive, to the whole candidate or to any prefix
    /// of it (so an abbreviation like `rond` finds `roundCorner`); a candidate needs a distance of
    /// at most a third of the typed length, and at least 2 is always allowed.
    public static func nearest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        guard !word.isEmpty else { return nil }
        let allowed = max(2, word.count / 3)
        var best: (name: String, score: Int)?
        for candidate in candidates {
            let score = distance(word, Array(candidate.lowercased()))
            if score <= 2 * allowed, score < (best?.score ?? Int.max) {
                best = (candidate, score)
            }
        }
        return best?.name
    }

    /// Twice the Levenshtein distance from `a` to `b`, or twice the distance to the closest
    /// prefix of `b` plus one when that is smaller: abbreviations count, but a whole-word match at
    /// the same distance wins, and a prefix beats a whole word one edit further away
    /// (`fil` → `fill`, not `fit`).
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...max(1, b.count) where j <= b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        // Row `previous` now holds distances from all of `a` to each prefix of `b`.
        let whole = previous[b.count]
        let prefix = previous[min(b.count, max(1, a.count - 1))...].min() ?? whole
        return min(2 * whole, 2 * prefix + 1)
    }
}
