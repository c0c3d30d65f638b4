/// One argument value as the chain syntax writes it.
public enum ArgumentValue: Hashable, Sendable, CustomStringConvertible {
    /// `20`, `-0.5`, `1.25`
    case number(Double)
    /// `400x300`
    case size(PixelSize)
    /// `400x` (a width alone) or `x300` (a height alone): the free side is 0. Only a `box`
    /// parameter takes one (`ParameterSpec.Kind.box`). The parser makes it of `400x`; `x300` it
    /// reads as a word, which a `box` parameter turns into this.
    case oneSidedBox(PixelSize)
    /// `#RRGGBB` or `#RRGGBBAA`
    case color(RGBAColor)
    /// A bare word: `fit`, `center`, `horizontal`
    case word(String)
    /// Words joined with `+`: `topLeft+bottomRight`
    case words([String])
    /// A point in unit coordinates: `(0.25, 0.75)`
    case point(UnitPoint)
    /// A point written as a pair `x,y` after its label: `focus: 0.3,0.7` (`ParameterSpec.Kind.point`).
    case pair(UnitPoint)
    /// A ratio `W:H` of whole numbers: `16:9` (`ParameterSpec.Kind.ratio`).
    case ratio(AspectRatio)
    /// Quoted text: `"https://example.com/logo.png"`; `\"` and `\\` inside stand for `"` and
    /// `\`. Only a `text` parameter takes one (a watermark's source).
    case text(String)

    /// The canonical spelling.
    public var description: String {
        switch self {
        case .number(let value): return Self.format(value)
        case .size(let size): return size.description
        case .oneSidedBox(let box): return box.boxText
        case .color(let color): return color.description
        case .word(let word): return word
        case .words(let words): return words.joined(separator: "+")
        case .point(let point):
            // The nine named anchors print by name: `anchor: center`, not `(0.5, 0.5)`.
            return point.name ?? "(\(Self.format(point.x)), \(Self.format(point.y)))"
        case .pair(let point): return "\(Self.format(point.x)),\(Self.format(point.y))"
        case .ratio(let ratio): return ratio.description
        case .text(let text): return Self.quoted(text)
        }
    }

    /// What kind of value this is, for error messages.
    public var kindName: String {
        switch self {
        case .number: return "a number"
        case .size: return "a size"
        case .oneSidedBox: return "a one-sided box"
        case .color: return "a colour"
        case .word(let word): return "'\(word)'"
        case .words: return "a list"
        case .point: return "a point"
        case .pair: return "a pair x,y"
        case .ratio: return "a ratio"
        case .text: return "a text"
        }
    }

    /// A box as a value: `.size` when both sides are given, so a two-sided box keeps the
    /// spelling (and the cache keys) it had before one-sided boxes existed; `.oneSidedBox` otherwise.
    public static func box(_ box: PixelSize) -> ArgumentValue {
        box.isOneSided ? .oneSidedBox(box) : .size(box)
    }

    /// `text` in double quotes, `"` and `\` escaped with a backslash: what `ChainParser` reads back.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            if c == "\"" || c == "\\" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out + "\""
    }

    /// Whole numbers print without a fraction (`20`, not `20.0`); others with the shortest
    /// representation that reads back to the same `Double`.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
