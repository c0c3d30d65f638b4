/// One element of an S3 XML response: its local name (any namespace prefix dropped), its text
/// (entities decoded, the element's own text runs joined) and its child elements.
///
/// S3 answers are small, flat documents; this reader takes the elements Darkroom needs without
/// FoundationXML (which needs libxml2 in the runtime image). `S3XMLReader` builds it, bounded.
public struct S3XMLElement: Sendable, Hashable {
    public var name: String
    public var text: String
    public var children: [S3XMLElement]

    public init(name: String, text: String = "", children: [S3XMLElement] = []) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child called `name`.
    public func child(_ name: String) -> S3XMLElement? { children.first { $0.name == name } }

    /// Every child called `name`, in order.
    public func children(_ name: String) -> [S3XMLElement] { children.filter { $0.name == name } }

    /// The text of the first child called `name`.
    public func value(_ name: String) -> String? { child(name)?.text }

    /// Parses a whole document (see `S3XMLReader`).
    public static func parse(_ bytes: [UInt8]) throws(S3XMLError) -> S3XMLElement {
        var reader = S3XMLReader(bytes)
        return try reader.document()
    }

    /// The element written back as XML: text first, then the children, `&`, `<`, `>` escaped
    /// (what `parse` reads back to an equal element).
    public var xml: String {
        "<\(name)>" + Self.escape(text) + children.map(\.xml).joined() + "</\(name)>"
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities.
    ///
    /// By Unicode scalar, not by `Character`: a `<` followed by a combining mark is one grapheme
    /// cluster, which a `Character` comparison would not see as `<` (the s3xml fuzz target found it).
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&apos;".unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}

/// Why an XML body could not be read. The message names the problem and its byte offset, never
/// the document's text.
public struct S3XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
