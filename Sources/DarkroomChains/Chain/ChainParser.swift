/// Reads chain text: `downsample(400x400)|>roundCorner(20, corners: topLeft+topRight)|>blackWhite`.
///
/// Grammar (whitespace is allowed between any two tokens):
///
///     chain     = call { "|>" call }
///     call      = name [ "(" [ argument { "," argument } ] ")" ]
///     argument  = [ name ":" ] value
///     value     = number | size | ratio | colour | word { "+" word } | "(" number "," number ")" | text
///     text      = '"' { character | '\\"' | '\\\\' } '"'    e.g. "https://example.com/logo.png"
///     size      = digits ("x" | "X") [ digits ]          e.g. 400x300, 400x (a width alone)
///     ratio     = digits ":" digits                      e.g. 16:9
///     pair      = number "," number                      e.g. 0.3,0.7, only as a named value
///     colour    = "#" 6 or 8 hex digits                   e.g. #FF000080
///     number    = [ "-" | "+" ] digits [ "." digits ]     e.g. -0.5
///
/// A height alone (`x300`) reads as a word, as a plugin's choice may be spelled so; a parameter
/// of kind `box` reads it as a height (`ArgumentBinder`). Positional arguments come before named
/// ones, so after `name:` a number followed by `,` and another number can only be a pair
/// (`focus: 0.3,0.7`); a parameter of another kind refuses it as a positional argument after a
/// named one, as it always was. Columns in errors are 1-based.
public enum ChainParser {
    public static func parse(_ text: String) throws(ChainError) -> ParsedChain {
        var scanner = Scanner(Array(text.unicodeScalars))
        scanner.skipSpace()
        guard !scanner.atEnd else {
            throw ChainError(code: .empty, column: 1, message: "the chain is empty; write at least one processor, e.g. downsample(400x400)")
        }
        var calls: [ParsedCall] = []
        repeat {
            scanner.skipSpace()
            calls.append(try parseCall(&scanner))
            scanner.skipSpace()
            if scanner.atEnd { break }
            guard scanner.consume("|>") else {
                throw scanner.error("expected '|>' between processors, found '\(scanner.peekText)'")
            }
        } while true
        return ParsedChain(calls: calls)
    }

    /// Reads one argument value written alone, as `ArgumentValue.description` prints it
    /// (`center`, `#00000000`, `topLeft+topRight`, `(0.25, 0.75)`, `-0.5`, `400x300`): how a
    /// default given as text in a `ProcessorSchema` becomes a value again.
    public static func value(_ text: String) throws(ChainError) -> ArgumentValue {
        var scanner = Scanner(Array(text.unicodeScalars))
        scanner.skipSpace()
        var parts: [Int] = []
        let value = try parsePairOrValue(&scanner, parts: &parts)
        scanner.skipSpace()
        guard scanner.atEnd else { throw scanner.error("expected the end of the value, found '\(scanner.peekText)'") }
        return value
    }

    private static func parseCall(_ s: inout Scanner) throws(ChainError) -> ParsedCall {
        let column = s.column
        guard let name = s.identifier() else {
            throw s.error(s.atEnd ? "expected a processor name after '|>'" : "expected a processor name, found '\(s.peekText)'")
        }
        s.skipSpace()
        var arguments: [ParsedArgument] = []
        guard s.consume("(") else {
            return ParsedCall(name: name, column: column, arguments: [], closingColumn: s.column)
        }
        s.skipSpace()
        if !s.consume(")") {
            var sawNamed = false
            repeat {
                s.skipSpace()
                let argument = try parseArgument(&s)
                if argument.label != nil {
                    sawNamed = true
                } else if sawNamed {
                    throw ChainError(
                        code: .syntax, processor: name, column: argument.column,
                        message: "positional argument after a named one; name it or move it before the named arguments")
                }
                arguments.append(argument)
                s.skipSpace()
                if s.consume(")") { break }
                guard s.consume(",") else {
                    throw s.error(s.atEnd ? "missing ')' to close \(name)(" : "expected ',' or ')' in \(name)(…), found '\(s.peekText)'", processor: name)
                }
            } while true
        }
        return ParsedCall(name: name, column: column, arguments: arguments, closingColumn: s.column - 1)
    }

    private static func parseArgument(_ s: inout Scanner) throws(ChainError) -> ParsedArgument {
        let start = s
        if let label = s.identifier() {
            s.skipSpace()
            if s.consume(":") {
                s.skipSpace()
                let column = s.column
                var parts: [Int] = []
                let value = try parsePairOrValue(&s, parts: &parts)
                return ParsedArgument(label: label, labelColumn: start.column, value: value, column: column, partColumns: parts)
            }
            s = start  // a bare word value, not a label
        }
        let column = s.column
        var parts: [Int] = []
        let value = try parseValue(&s, parts: &parts)
        return ParsedArgument(label: nil, labelColumn: column, value: value, column: column, partColumns: parts)
    }

    /// A value, or a pair `x,y` when a number is followed by `,` and another plain number (not a
    /// size or a ratio): only where a pair cannot be two arguments (after a label, or a value
    /// standing alone). Anything else after the comma is left for the caller, which reads or
    /// refuses it as before pairs existed.
    private static func parsePairOrValue(_ s: inout Scanner, parts: inout [Int]) throws(ChainError) -> ArgumentValue {
        let column = s.column
        let value = try parseValue(&s, parts: &parts)
        guard case .number(let x) = value else { return value }
        var ahead = s
        ahead.skipSpace()
        guard ahead.consume(",") else { return value }
        ahead.skipSpace()
        let yColumn = ahead.column
        var ignored: [Int] = []
        guard let c = ahead.peek, c == "-" || c == "+" || c == "." || ("0"..."9").contains(c),
            case .number(let y)? = try? parseValue(&ahead, parts: &ignored)
        else { return value }
        s = ahead
        parts = [column, yColumn]
        return .pair(UnitPoint(x: x, y: y))
    }

    private static func parseValue(_ s: inout Scanner, parts: inout [Int]) throws(ChainError) -> ArgumentValue {
        guard let c = s.peek else { throw s.error("expected a value, found the end of the chain") }
        if c == "#" {
            let column = s.column
            let text = s.take { $0 == "#" || $0.properties.isASCIIHexDigit }
            guard let color = RGBAColor(hex: text) else {
                throw ChainError(code: .syntax, column: column, message: "'\(text)' is not a colour; write #RRGGBB or #RRGGBBAA")
            }
            return .color(color)
        }
        if c == "\"" { return .text(try parseText(&s)) }
        if c == "(" {
            s.advance()
            s.skipSpace()
            let x = try parseNumber(&s)
            s.skipSpace()
            guard s.consume(",") else { throw s.error("expected ',' in a point (x, y)") }
            s.skipSpace()
            let y = try parseNumber(&s)
            s.skipSpace()
            guard s.consume(")") else { throw s.error("expected ')' to close a point (x, y)") }
            return .point(UnitPoint(x: x, y: y))
        }
        if c.properties.isAlphabetic {
            var words = [s.identifier()!]
            while s.consume("+") {
                guard let word = s.identifier() else { throw s.error("expected a word after '+'") }
                words.append(word)
            }
            return words.count == 1 ? .word(words[0]) : .words(words)
        }
        let column = s.column
        let number = try parseNumber(&s)
        if s.peek == "x" || s.peek == "X" {
            s.advance()
            let heightColumn = s.column
            let digits = s.take { ("0"..."9").contains($0) }
            // After a width alone, a letter or a '.' means a mistyped size, not the next token.
            let widthAlone = digits.isEmpty && !(s.peek.map { $0.properties.isAlphabetic || $0 == "." } ?? false)
            guard number == number.rounded(), number >= 0, let width = Int(exactly: number),
                widthAlone || Int(digits) != nil
            else {
                throw ChainError(
                    code: .syntax, column: digits.isEmpty ? heightColumn : column,
                    message: "a size is two whole numbers WxH, e.g. 400x300, or a width alone, e.g. 400x")
            }
            // `400x`: a width alone, which only a `box` parameter takes.
            guard let height = Int(digits) else { return .oneSidedBox(.width(width)) }
            return .size(PixelSize(width: width, height: height))
        }
        if s.peek == ":" {
            s.advance()
            let heightColumn = s.column
            let digits = s.take { ("0"..."9").contains($0) }
            let malformed = s.peek.map { $0.properties.isAlphabetic || $0 == "." || $0 == ":" } ?? false
            guard number == number.rounded(), number >= 0, let width = Int(exactly: number), let height = Int(digits), !malformed else {
                throw ChainError(
                    code: .syntax, column: digits.isEmpty || malformed ? heightColumn : column,
                    message: "a ratio is two whole numbers W:H, e.g. 16:9")
            }
            parts = [column, heightColumn]
            return .ratio(AspectRatio(width: width, height: height))
        }
        return .number(number)
    }

    /// Quoted text; a backslash makes the next character literal. Control characters are refused:
    /// no source address or file name needs one, and they would break the one-line records.
    private static func parseText(_ s: inout Scanner) throws(ChainError) -> String {
        let column = s.column
        s.advance()
        var text = String.UnicodeScalarView()
        var escaped = false
        while let c = s.peek {
            s.advance()
            guard c.value >= 0x20, c.value != 0x7F else {
                throw ChainError(code: .syntax, column: s.column - 1, message: "a text may not hold control characters")
            }
            if escaped {
                text.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "\"" {
                return String(text)
            } else {
                text.append(c)
            }
        }
        throw ChainError(code: .syntax, column: column, message: "missing '\"' to close the text opened here")
    }

    private static func parseNumber(_ s: inout Scanner) throws(ChainError) -> Double {
        let column = s.column
        var text = ""
        if s.peek == "-" || s.peek == "+" {
            text.unicodeScalars.append(s.peek!)
            s.advance()
        }
        text += s.take { ("0"..."9").contains($0) || $0 == "." }
        guard let value = Double(text), text.contains(where: \.isNumber) else {
            throw ChainError(
                code: .syntax, column: column,
                message: text.isEmpty ? "expected a value, found '\(s.peekText)'" : "'\(text)' is not a number")
        }
        return value
    }
}

/// A cursor over the chain's characters that knows its column.
private struct Scanner {
    let chars: [Unicode.Scalar]
    var index = 0

    init(_ chars: [Unicode.Scalar]) { self.chars = chars }

    var atEnd: Bool { index >= chars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : chars[index] }
    var column: Int { index + 1 }
    var peekText: String {
        guard !atEnd else { return "end of chain" }
        return String(String.UnicodeScalarView(chars[index..<min(chars.count, index + 8)]))
    }

    mutating func advance() { index += 1 }

    mutating func skipSpace() {
        while let c = peek, c.properties.isWhitespace { index += 1 }
    }

    mutating func consume(_ literal: String) -> Bool {
        let scalars = Array(literal.unicodeScalars)
        guard index + scalars.count <= chars.count, Array(chars[index..<index + scalars.count]) == scalars else { return false }
        index += scalars.count
        return true
    }

    mutating func take(while predicate: (Unicode.Scalar) -> Bool) -> String {
        var out = String.UnicodeScalarView()
        while let c = peek, predicate(c) {
            out.append(c)
            index += 1
        }
        return String(out)
    }

    mutating func identifier() -> String? {
        guard let c = peek, c.properties.isAlphabetic else { return nil }
        return take { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }

    func error(_ message: String, processor: String? = nil) -> ChainError {
        ChainError(code: .syntax, processor: processor, column: column, message: message)
    }
}
