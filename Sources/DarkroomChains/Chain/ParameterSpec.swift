/// One parameter of a processor: its name, what values it takes, and its default.
public struct ParameterSpec: Sendable {
    /// The kinds of values a parameter accepts.
    public enum Kind: Sendable {
        /// Any number in `range`.
        case number(ClosedRange<Double>)
        /// A number greater than zero and at most `upTo` (radii, widths): `must be > 0 (got -3)`.
        case positive(upTo: Double)
        /// A whole number in `range`.
        case integer(ClosedRange<Int>)
        /// `WxH`; each side 1…65535.
        case size
        /// A box: `WxH`, or a width alone `Wx` or a height alone `xH`; each given side 1…65535.
        /// For the standard geometry processors only: a plugin declares `size` (the C ABI's
        /// `DARKROOM_KIND_SIZE`), and so never receives a free side.
        case box
        /// `#RRGGBB[AA]`.
        case color
        /// One of the listed words.
        case choice([String])
        /// One or more of the listed words joined with `+`; `all` means every one.
        case choiceSet([String])
        /// One of the named anchors (`center`, `topLeft`, …) or a unit point `(x, y)` in 0…1.
        case anchor
        /// A point `x,y` (or `(x, y)`) with both coordinates in 0…1: a focal point. Written after
        /// its label (`focus: 0.3,0.7`), since a bare `0.3,0.7` reads as two arguments; printed so.
        case point
        /// A ratio `W:H` of whole numbers, each 1…`AspectRatio.maximumTerm`; kept in lowest terms.
        case ratio

        /// False for a kind whose canonical spelling cannot stand as a positional argument (a
        /// pair `x,y` would read as two): such a parameter is always printed with its label.
        var printsPositionally: Bool {
            if case .point = self { return false }
            return true
        }
        /// Quoted text of 1…`maxLength` characters (`"…"`): a watermark's source. For the standard
        /// processors only; a plugin's C schema has no such kind.
        case text(maxLength: Int)
    }

    public var name: String
    public var kind: Kind
    /// `nil` makes the parameter required, unless it `isOptional`.
    public var defaultValue: ArgumentValue?
    /// An optional parameter without a default: when a chain leaves it out it is absent from the
    /// arguments (`ProcessorArguments.has(_:)`) and from the canonical text, so adding one to an
    /// existing processor keeps every existing chain's text and cache identity. Never together
    /// with a `defaultValue`.
    public var isOptional: Bool
    /// One line for `darkroom plugins` and the README.
    public var summary: String

    public init(_ name: String, _ kind: Kind, default defaultValue: ArgumentValue? = nil, summary: String = "") {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.isOptional = false
        self.summary = summary
    }

    /// An optional parameter with no default (`isOptional`).
    public static func optional(_ name: String, _ kind: Kind, summary: String = "") -> ParameterSpec {
        var spec = ParameterSpec(name, kind, summary: summary)
        spec.isOptional = true
        return spec
    }

    public var isRequired: Bool { defaultValue == nil && !isOptional }

    /// How the syntax spells an acceptable value, for messages and docs.
    public var expectation: String {
        switch kind {
        case .number(let range): return "a number in \(ArgumentValue.format(range.lowerBound))…\(ArgumentValue.format(range.upperBound))"
        case .positive(let max): return "a number > 0 and ≤ \(ArgumentValue.format(max))"
        case .integer(let range): return "a whole number in \(range.lowerBound)…\(range.upperBound)"
        case .size: return "a size WxH"
        case .box: return "a size WxH, a width Wx or a height xH"
        case .color: return "a colour #RRGGBB or #RRGGBBAA"
        case .choice(let words): return "one of " + words.joined(separator: ", ")
        case .choiceSet(let words): return "one or more of " + words.joined(separator: ", ") + " joined with +, or all"
        case .anchor: return "an anchor (" + UnitPoint.named.map(\.name).joined(separator: ", ") + ") or a point (x, y) in 0…1"
        case .point: return "a point x,y with x and y in 0…1 (e.g. 0.5,0.25)"
        case .ratio: return "a ratio W:H of whole numbers in 1…\(AspectRatio.maximumTerm) (e.g. 16:9)"
        case .text(let maxLength): return "a quoted text \"…\" of 1…\(maxLength) characters"
        }
    }
}
