/// Small stand-ins for an output image that a page shows while the image loads: a BlurHash, a
/// ThumbHash and a dominant colour (docs/placeholders.md). Computed on request (a job's
/// `placeholders`), carried in the job's result and stored beside the cached result, so a cache
/// hit returns them without decoding the image.
///
/// Here, in the system layer, because the pipeline computes and caches them and the queue
/// records carry them, and neither depends on the other (as `CacheOutcome`).
public struct Placeholders: Sendable, Hashable, Codable {
    /// Wolt's BlurHash (base 83), 4×3 components.
    public var blurhash: String?
    /// Evan Wallace's ThumbHash, its bytes in standard base64 with padding.
    public var thumbhash: String?
    /// The dominant colour, `#rrggbb` in lower case.
    public var color: String?

    public init(blurhash: String? = nil, thumbhash: String? = nil, color: String? = nil) {
        self.blurhash = blurhash
        self.thumbhash = thumbhash
        self.color = color
    }

    /// True when it holds none of them.
    public var isEmpty: Bool { blurhash == nil && thumbhash == nil && color == nil }

    /// The kinds it holds.
    public var kinds: Set<PlaceholderKind> {
        Set(PlaceholderKind.allCases.filter { self[$0] != nil })
    }

    /// The value of one kind.
    public subscript(kind: PlaceholderKind) -> String? {
        get {
            switch kind {
            case .blurhash: blurhash
            case .thumbhash: thumbhash
            case .color: color
            }
        }
        set {
            switch kind {
            case .blurhash: blurhash = newValue
            case .thumbhash: thumbhash = newValue
            case .color: color = newValue
            }
        }
    }

    /// Only the kinds in `kinds`; nil when none of them is held.
    public func restricted(to kinds: Set<PlaceholderKind>) -> Placeholders? {
        var kept = Placeholders()
        for kind in kinds { kept[kind] = self[kind] }
        return kept.isEmpty ? nil : kept
    }
}

/// One kind of placeholder, spelt as in job records and `--placeholders`.
public enum PlaceholderKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case blurhash, color, thumbhash

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Every name, sorted: the canonical order of a job's `placeholders` list.
    public static let names: [String] = allCases.map(\.rawValue).sorted()

    /// The kinds named in `names`; nil when a name is not a kind (it is returned in `unknown`).
    public static func parse<S: Sequence<String>>(_ names: S) -> Result<Set<PlaceholderKind>, UnknownName> {
        var kinds = Set<PlaceholderKind>()
        for name in names {
            guard let kind = PlaceholderKind(rawValue: name) else { return .failure(UnknownName(name: name)) }
            kinds.insert(kind)
        }
        return .success(kinds)
    }

    /// A name that is not a placeholder kind.
    public struct UnknownName: Error, Sendable, Equatable {
        public var name: String
    }
}
