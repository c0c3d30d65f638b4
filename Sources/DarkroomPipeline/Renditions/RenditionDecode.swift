import DarkroomChains
import DarkroomCore

/// How the renditions of one job share one decode, and what that does to their cache keys.
///
/// **The decode.** Every rendition's chain says through its first processor's `DecodeHint` how
/// small the decoder may make the image. The shared decode must cover the largest of them, for
/// any source size, so it is chosen from the hints alone (the cache keys depend on it, and are
/// known before the source is fetched):
/// - a rendition without a hint (its chain does not start by shrinking) needs the full image:
///   no hint;
/// - otherwise the first hint that *covers* every other one (`covers`);
/// - otherwise a made-up `fill` hint over the largest width and the largest height, which covers
///   every `fit`, `fill` and `stretch` hint within those bounds.
///
/// **The keys.** A rendition whose own hint is the shared one decodes exactly what the single-output
/// job with its chain and encoding decodes, and makes the same bytes: it shares that job's result
/// key (`ImageRequest.resultKey`), in both directions. Any other rendition is made from a larger
/// decode, or from a larger rendition's intermediate (`RenditionCascade`), so its bytes may
/// differ: its key is the single job's with `|decode=<hint>` appended, then `|from=<lineage>` for
/// one made from another rendition; no single-output job ever asks for such a key.
public enum RenditionDecode {
    /// The hint the shared decode uses for renditions whose chains have `hints` (nil: full size).
    public static func sharedHint(_ hints: [DecodeHint?]) -> DecodeHint? {
        var boxes: [DecodeHint] = []
        for hint in hints {
            guard let hint, !hint.box.isEmpty else { return nil }
            boxes.append(hint)
        }
        guard !boxes.isEmpty else { return nil }
        if let widest = boxes.first(where: { candidate in boxes.allSatisfy { covers(candidate, $0) } }) { return widest }
        let width = boxes.map(\.box.width).max() ?? 0
        let height = boxes.map(\.box.height).max() ?? 0
        return DecodeHint(box: PixelSize(width: width, height: height), mode: .fill)
    }

    /// Whether a decode for `larger` is at least as large as one for `smaller` on both axes,
    /// whatever the source's size: `larger`'s box is at least `smaller`'s on both axes, and its
    /// mode scales at least as much (`fill` takes the larger axis scale, so it covers every mode;
    /// `stretch` covers `fit`, which takes the smaller one).
    public static func covers(_ larger: DecodeHint, _ smaller: DecodeHint) -> Bool {
        guard larger.box.width >= smaller.box.width, larger.box.height >= smaller.box.height else { return false }
        switch (larger.mode, smaller.mode) {
        case (.fill, _), (.stretch, .fit): return true
        default: return larger.mode == smaller.mode
        }
    }

    /// The result key of a rendition whose chain has hint `own`, made from a decode with `shared`
    /// and, when `lineage` is given (`RenditionCascade.lineage`), from the intermediates it names:
    /// `single` (the equivalent single-output job's key) when the hints are equal and there is no
    /// lineage, else `single` with `|decode=` and the shared hint (`full`, or `fit:2048x2048`),
    /// then `|from=` and the lineage.
    public static func key(single: String, own: DecodeHint?, shared: DecodeHint?, lineage: String? = nil) -> String {
        if let lineage { return single + "|decode=" + describe(shared) + "|from=" + lineage }
        return own == shared ? single : single + "|decode=" + describe(shared)
    }

    /// `full` for no hint, else `mode:WxH`.
    public static func describe(_ hint: DecodeHint?) -> String {
        guard let hint else { return "full" }
        return "\(hint.mode.rawValue):\(hint.box.width)x\(hint.box.height)"
    }
}
