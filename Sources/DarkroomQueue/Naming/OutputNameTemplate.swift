/// An output-name template: how a job's output file is named in its `output` directory, from
/// fields known before any work is done. One syntax everywhere it appears (`--name` on `process`,
/// `run` and `enqueue`, a job line's and a job record's `name`), parsed and rendered only here.
///
///     {stem}.{ext}                 cat.webp            (the default)
///     {stem}-{chain}.{ext}         cat-3f9a0c1b22de.webp
///     {batch}/{id}.{ext}           refused: a name, not a path
///
/// Fields: `{stem}` (the source's base name, or the `{id}` name when it has none), `{id}` (the
/// job id as a file name), `{batch}` (the batch, by the same rule), `{chain}` (`ChainDigest` of
/// the canonical chain), `{ext}` (the output format's extension, `jpg` for JPEG) and `{name}` (a
/// rendition's name; only in jobs with renditions). `{{` and
/// `}}` are literal braces. Refused when parsed: an unknown field, an unbalanced brace, a `/`,
/// NUL or control character, no `{ext}` (the name must say the file's format), a leading `.`,
/// and literal text alone longer than 255 bytes. A rendered name longer than 255 bytes or
/// starting with `.` is refused when rendered.
public struct OutputNameTemplate: Sendable, Hashable, CustomStringConvertible {
    /// A field a template may name.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case stem, id, batch, chain, ext, name
    }

    enum Piece: Sendable, Hashable {
        case literal(String)
        case field(Field)
    }

    /// The template as written.
    public let text: String
    let pieces: [Piece]

    /// `{stem}.{ext}`: what a job without a `name` gets.
    public static let defaultText = "{stem}.{ext}"
    /// `{stem}-{chain}.{ext}`: what enqueue gives a job under the default template whose name
    /// another job of the same request already has.
    public static let collisionText = "{stem}-{chain}.{ext}"
    /// `{stem}-{name}.{ext}`: what a rendition of a job without a `name` gets.
    public static let renditionsDefaultText = "{stem}-{name}.{ext}"
    /// `{id}-{name}.{ext}`: what a rendition is named instead when another batch's file has its
    /// default name (the job id's name, which only that job writes).
    public static let renditionsFallbackText = "{id}-{name}.{ext}"
    /// The longest template text accepted (a job record's `name`).
    public static let maxTemplateBytes = 1024
    /// The longest name (Linux's `NAME_MAX`).
    public static let maxNameBytes = 255

    // Force-unwrapped: both are constants this file's tests parse.
    public static let `default` = try! OutputNameTemplate(parsing: defaultText)
    public static let collision = try! OutputNameTemplate(parsing: collisionText)
    public static let renditionsDefault = try! OutputNameTemplate(parsing: renditionsDefaultText)
    public static let renditionsFallback = try! OutputNameTemplate(parsing: renditionsFallbackText)

    /// Parses `text`. - Throws: `OutputNameError` saying what is wrong and where.
    public init(parsing text: String) throws(OutputNameError) {
        guard !text.isEmpty, text.utf8.count <= Self.maxTemplateBytes else {
            throw OutputNameError(.empty, "an output-name template must be 1–\(Self.maxTemplateBytes) bytes, e.g. \(Self.defaultText)")
        }
        if let bad = text.unicodeScalars.first(where: { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F }) {
            let what = bad == "/" ? "'/'" : "a control character (U+\(String(bad.value, radix: 16, uppercase: true)))"
            throw OutputNameError(.notAName, "output-name template '\(Self.shown(text))' has \(what): it names a file in the output directory, not a path")
        }
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "}" {
                guard rest.first == "}" else {
                    throw OutputNameError(
                        .unbalancedBrace, "output-name template '\(Self.shown(text))' has a '}' without its '{'; write }} for a literal brace")
                }
                rest = rest.dropFirst()
                literal.append("}")
            } else if character == "{" {
                if rest.first == "{" {
                    rest = rest.dropFirst()
                    literal.append("{")
                    continue
                }
                guard let close = rest.firstIndex(of: "}"), !rest[..<close].contains("{") else {
                    throw OutputNameError(
                        .unbalancedBrace, "output-name template '\(Self.shown(text))' has a '{' without its '}'; write {{ for a literal brace")
                }
                let name = String(rest[..<close])
                guard let field = Field(rawValue: name) else {
                    let known = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                    throw OutputNameError(
                        .unknownField, "output-name template '\(Self.shown(text))' has an unknown field {\(Self.shown(name))}; the fields are \(known)")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.field(field))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(character)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        try Self.check(pieces, text: text)
        self.text = text
        self.pieces = pieces
    }

    private static func check(_ pieces: [Piece], text: String) throws(OutputNameError) {
        guard pieces.contains(.field(.ext)) else {
            throw OutputNameError(
                .noExtension, "output-name template '\(shown(text))' has no {ext}: a name must end in its format's extension, e.g. {stem}.{ext}")
        }
        if case .literal(let first)? = pieces.first, first.hasPrefix(".") {
            throw OutputNameError(.hidden, "output-name template '\(shown(text))' starts with '.': the output would be a hidden file")
        }
        let literalBytes = pieces.reduce(0) { total, piece in
            if case .literal(let text) = piece { return total + text.utf8.count }
            return total
        }
        guard literalBytes <= maxNameBytes else {
            throw OutputNameError(.tooLong, "output-name template '\(shown(text))' gives names longer than \(maxNameBytes) bytes")
        }
    }

    /// The fields the template names.
    public var fields: Set<Field> {
        Set(
            pieces.compactMap { piece in
                if case .field(let field) = piece { return field }
                return nil
            })
    }

    public var description: String { text }

    /// At most 80 characters of `text`, for messages.
    static func shown(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}
