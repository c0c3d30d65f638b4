import DarkroomSources

/// `--allow-source` prefix matching. The input's lines are prefixes, its last line a candidate
/// URL. The list's decision must equal a reading of the documented rule done on the normal text
/// forms (the same origin, and the path equal to the prefix's path or going on under it after a
/// `/`; the first matching prefix decides about escaped separators), and must not change when
/// the candidate is parsed again from its own normal form.
enum AllowListFuzz {
    static let target = FuzzTarget(
        name: "allowlist",
        summary: "--allow-source prefixes against candidate URLs: the documented rule, and stability under normalisation"
    ) { bytes in
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, lines.count <= 9, let candidateText = lines.popLast() else { return }
        guard let list = try? SourceAllowList(lines), let candidate = try? SourceURL(parsing: candidateText) else { return }

        let decision = outcome(list, candidate)
        let expected = expectedOutcome(list, candidate)
        if decision != expected {
            FuzzFailure.stop(
                "allowlist",
                "prefixes \(lines) and \(candidateText.debugDescription) (normal form \(candidate.serialized.debugDescription)): the list says \(decision), the rule says \(expected)"
            )
        }
        guard let again = try? SourceURL(parsing: candidate.serialized) else {
            FuzzFailure.stop("allowlist", "\(candidate.serialized.debugDescription) does not parse again")
        }
        if outcome(list, again) != decision {
            FuzzFailure.stop(
                "allowlist", "\(candidateText.debugDescription) is \(decision), its normal form \(candidate.serialized.debugDescription) is not")
        }
    }

    private static func outcome(_ list: SourceAllowList, _ url: SourceURL) -> String {
        do throws(SourceURL.Problem) {
            return try list.check(url) ? "named" : "unrestricted"
        } catch {
            return "refused"
        }
    }

    /// The rule of docs/sources-and-policy.md, on text.
    private static func expectedOutcome(_ list: SourceAllowList, _ url: SourceURL) -> String {
        if list.isEmpty { return "unrestricted" }
        let first = list.prefixes.first { prefix in
            guard prefix.url.origin == url.origin else { return false }
            // Compared as bytes: String's == and hasPrefix follow Unicode equivalence.
            let base = Array(prefix.url.path.utf8)
            let path = Array(url.path.utf8)
            return path == base || path.starts(with: base.last == UInt8(ascii: "/") ? base : base + [UInt8(ascii: "/")])
        }
        guard let first else { return "refused" }
        let escaped = url.path.contains("%2F") || url.path.contains("%5C")
        return first.url.path != "/" && escaped ? "refused" : "named"
    }
}
