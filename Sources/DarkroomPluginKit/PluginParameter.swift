/// One parameter of a `PluginProcessor`, declared with Swift values and written into the C
/// descriptor as a `darkroom_param`.
///
/// The host checks chain text against the declarations (kinds, ranges, choices, defaults) exactly
/// as for its built-in processors, so `process` only ever sees valid arguments. Required
/// parameters (no default) come before optional ones.
///
/// ```swift
/// static let parameters: [PluginParameter] = [
///     .number("amount", in: 0...1, default: 1, summary: "0 leaves the image as it is"),
///     .choice("mode", ["fit", "fill"], default: "fit"),
/// ]
/// ```
public struct PluginParameter: Hashable, Sendable {
    /// The kinds of values, as the chain syntax writes them.
    public enum Kind: Hashable, Sendable {
        /// A number in the range: `radius: 2.5`.
        case number(ClosedRange<Double>)
        /// A whole number in the range: `8`.
        case integer(ClosedRange<Int>)
        /// A size `WxH`, each side 1…65535: `400x300`.
        case size
        /// A colour `#RRGGBB` or `#RRGGBBAA`.
        case color
        /// One of the words (letters, digits and `_`): `mode: fill`.
        case choice([String])
    }

    /// Letters, digits and `_`, starting with a letter; unique within the processor.
    public var name: String
    public var kind: Kind
    /// The default as chain text (`"2"`, `"400x300"`, `"#000000FF"`, `"fill"`), which is what
    /// the ABI carries; nil for a required parameter. The typed factories write it for you.
    public var defaultText: String?
    /// One line for `darkroom plugins`.
    public var summary: String

    public init(name: String, kind: Kind, defaultText: String?, summary: String = "") {
        self.name = name
        self.kind = kind
        self.defaultText = defaultText
        self.summary = summary
    }

    /// A number in `range`, optional when it has a default.
    public static func number(_ name: String, in range: ClosedRange<Double>, default value: Double? = nil, summary: String = "") -> PluginParameter {
        PluginParameter(name: name, kind: .number(range), defaultText: value.map(ChainText.number), summary: summary)
    }

    /// A whole number in `range`, optional when it has a default.
    public static func integer(_ name: String, in range: ClosedRange<Int>, default value: Int? = nil, summary: String = "") -> PluginParameter {
        PluginParameter(name: name, kind: .integer(range), defaultText: value.map { String($0) }, summary: summary)
    }

    /// A size `WxH`, optional when it has a default.
    public static func size(_ name: String, default value: PluginSize? = nil, summary: String = "") -> PluginParameter {
        PluginParameter(name: name, kind: .size, defaultText: value?.description, summary: summary)
    }

    /// A colour, optional when it has a default.
    public static func color(_ name: String, default value: PluginColor? = nil, summary: String = "") -> PluginParameter {
        PluginParameter(name: name, kind: .color, defaultText: value?.description, summary: summary)
    }

    /// One word out of `choices`, optional when it has a default (one of `choices`).
    public static func choice(_ name: String, _ choices: [String], default value: String? = nil, summary: String = "") -> PluginParameter {
        PluginParameter(name: name, kind: .choice(choices), defaultText: value, summary: summary)
    }
}

/// Values written as the chain syntax reads them.
enum ChainText {
    /// `8`, `0.5`, `-2.25`, `0.00001`: the chain syntax has no exponents, so Swift's shortest
    /// spelling (`1e-05`) is written out in positional form (which reads back as the same Double).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e18 { return String(Int(value)) }
        let text = "\(value)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = Substring(text[..<e])
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { mantissa = mantissa.dropFirst() }
        let whole = mantissa.prefix { $0 != "." }
        let fraction = mantissa.dropFirst(whole.count + (whole.count < mantissa.count ? 1 : 0))
        var digits = String(whole + fraction)
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        }
        if point >= digits.count { return sign + digits + String(repeating: "0", count: point - digits.count) }
        return sign + digits.prefix(point) + "." + digits.dropFirst(point)
    }
}
