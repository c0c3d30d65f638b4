/// Finds the known name a typo most likely meant ("rond" → "roundCorner").
enum NameSuggester {
    /// The closest of `candidates` to `typed`, or nil when none is close enough to be a typo.
    ///
    /// Closeness is the edit distance, case-insensitive, to the whole candidate or to any prefix
    /// of it (so an abbreviation like `rond` finds `roundCorner`); a candidate needs a distance of
    /// at most a third of the typed length, and at least 2 is always allowed.
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        guard !word.isEmpty else { return nil }
        let allowed = max(2, word.count / 3)
        var best: (name: String, score: Int)?
        for candidate in candidates {
            let score = distance(word, Array(candidate.lowercased()))
            if score <= allowed, score < (best?.score ?? Int.max) {
                best = (candidate, score)
            }
        }
        return best?.name
    }

    /// Levenshtein distance from `a` to `b` or, when smaller, to a prefix of `b` at least as
    /// long as `a` minus the allowance (plus one, so exact matches always win).
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
        let whole = previous[b.count]
        // Row `previous` now holds distances from all of `a` to each prefix of `b`.
        let prefixes = previous[min(b.count, max(1, a.count - 1))...].min() ?? whole
        return min(whole, prefixes + (prefixes == whole ? 0 : 1))
    }
}
