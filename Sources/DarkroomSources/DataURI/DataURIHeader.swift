/// The part of a `data:` URI before the comma (RFC 2397):
/// `data:[<mediatype>][;<attribute>=<value>]*[;base64],<data>`.
struct DataURIHeader: Equatable {
    /// `type/subtype`, lower-cased, or nil when the URI names none (RFC 2397 then implies
    /// `text/plain;charset=US-ASCII`, which no image has, so Darkroom reports "unknown").
    var mediaType: String?
    /// `attribute=value` pairs in order, attributes lower-cased, values as written.
    var parameters: [(name: String, value: String)]
    /// True when the header ends in `;base64`.
    var isBase64: Bool

    static func == (lhs: DataURIHeader, rhs: DataURIHeader) -> Bool {
        lhs.mediaType == rhs.mediaType && lhs.isBase64 == rhs.isBase64
            && lhs.parameters.elementsEqual(rhs.parameters, by: { $0 == $1 })
    }

    /// Headers longer than this are refused: real ones are a few dozen bytes, and the header is
    /// kept in messages.
    static let maximumLength = 1024

    /// Parses the header text between `data:` and the comma. Returns a message on failure.
    static func parse(_ text: Substring) -> Result<DataURIHeader, DataURIHeaderError> {
        guard text.utf8.count <= maximumLength else {
            return .failure(
                DataURIHeaderError(
                    "the part before the comma is longer than \(maximumLength) bytes; "
                        + "is the comma after the media type missing?"))
        }
        var header = DataURIHeader(mediaType: nil, parameters: [], isBase64: false)
        // The grammar is `[type/subtype] *(";" attribute=value) [";base64"]`: the first segment is
        // always the media type (possibly empty), and `base64` needs its semicolon.
        var segments = text.split(separator: ";", omittingEmptySubsequences: false)
        if segments.count >= 2, let last = segments.last, last.lowercased() == "base64" {
            header.isBase64 = true
            segments.removeLast()
        }
        let first = segments.removeFirst()
        if !first.isEmpty {
            guard let mediaType = validMediaType(first) else {
                let hint = first.lowercased() == "base64" ? " (did you mean ';base64'?)" : ""
                return .failure(DataURIHeaderError("media type '\(first)' is not of the form type/subtype\(hint)"))
            }
            header.mediaType = mediaType
        }
        for segment in segments {
            if segment.lowercased() == "base64" {
                return .failure(DataURIHeaderError("';base64' must be the last parameter before the comma"))
            }
            guard let equals = segment.firstIndex(of: "="), equals != segment.startIndex else {
                let shown = segment.isEmpty ? "an empty parameter" : "parameter '\(segment)'"
                return .failure(DataURIHeaderError("\(shown) in the media type is not of the form attribute=value"))
            }
            let name = segment[..<equals]
            guard name.utf8.allSatisfy(isTokenByte) else {
                return .failure(DataURIHeaderError("parameter name '\(name)' contains characters not allowed in a token"))
            }
            header.parameters.append((name.lowercased(), String(segment[segment.index(after: equals)...])))
        }
        return .success(header)
    }

    /// `type/subtype` lower-cased when both halves are RFC 7230 tokens.
    private static func validMediaType(_ text: Substring) -> String? {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, halves.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isTokenByte) }) else { return nil }
        return text.lowercased()
    }

    /// RFC 7230 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

/// A header that does not follow RFC 2397, with the reason.
struct DataURIHeaderError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
