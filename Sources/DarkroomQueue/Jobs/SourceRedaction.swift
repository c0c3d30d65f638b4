/// A job's source as events and records show it: without credentials, and without a `data:` URI's
/// payload. Pure text rules (no `URL` parsing, whose leniency differs between platforms):
///
/// - `scheme://user:pass@host/…` → `scheme://***@host/…`. The user-info is everything after `//`
///   up to the last `@` before the first `?` (or before the end when there is no `?`), so a
///   password holding an unencoded `/` or `#` is masked whole. The price is on the safe side: an
///   `@` in the path, or in a fragment of a URL without a query, masks what precedes it too
///   (`https://e.com/@me/a.jpg` → `https://***@me/a.jpg`). An `@` after the first `?` is left alone.
/// - The value of each query parameter (parameters separated by `&` or `;`) named (ASCII
///   case-insensitively, after percent-decoding the name) `X-Amz-Signature`, `X-Amz-Credential`,
///   `X-Amz-Security-Token`, `X-Goog-Signature`, `X-Goog-Credential`, `sig` or `token` becomes
///   `***`, every occurrence; other parameters, their separators, their order and the fragment
///   are kept byte for byte.
/// - A `data:` URI (scheme case-insensitive) becomes its header up to the comma and the URI's
///   whole length in bytes: `data:image/png;base64,… (12,345 bytes)`; without a comma nothing of
///   it but the scheme: `data:… (505 bytes)`.
/// - Anything else (a file path) is unchanged.
public enum SourceRedaction {
    /// What replaces a credential.
    public static let mask = "***"

    /// Query parameter names whose values are credentials, lowercased.
    public static let secretParameters: Set<String> = [
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential", "sig",
        "token",
    ]

    /// `source` with its credentials masked and a `data:` payload left out.
    public static func redact(_ source: String) -> String {
        let bytes = Array(source.utf8)
        if hasPrefix(bytes, "data:") { return dataSummary(bytes) }
        guard let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":")), schemeEnd > 0,
            bytes[..<schemeEnd].allSatisfy(isSchemeByte), bytes[schemeEnd...].starts(with: Array("://".utf8))
        else { return source }
        var out = Array(bytes[...(schemeEnd + 2)])
        var hostStart = schemeEnd + 3
        // A password may hold an unencoded `/` or `#`: only the query is safe from user-info.
        let firstQuestion = bytes[hostStart...].firstIndex(of: question) ?? bytes.count
        if let at = bytes[hostStart..<firstQuestion].lastIndex(of: UInt8(ascii: "@")), !isEndpointAlias(bytes, schemeEnd: schemeEnd, at: at) {
            out += mask.utf8
            hostStart = at
        }
        let authorityEnd = bytes[hostStart...].firstIndex { $0 == slash || $0 == question || $0 == hash } ?? bytes.count
        out += bytes[hostStart..<authorityEnd]
        let fragmentStart = bytes[authorityEnd...].firstIndex(of: hash) ?? bytes.count
        let queryStart = bytes[authorityEnd..<fragmentStart].firstIndex(of: question) ?? fragmentStart
        out += bytes[authorityEnd..<queryStart]
        if queryStart < fragmentStart {
            out.append(question)
            out += maskedQuery(bytes[(queryStart + 1)..<fragmentStart])
        }
        out += bytes[fragmentStart...]
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether the user-info ending at `at` is the endpoint alias of `s3://ALIAS@bucket/key`
    /// (letters, digits and `-`, no password), which names a configured endpoint and is no secret.
    private static func isEndpointAlias(_ bytes: [UInt8], schemeEnd: Int, at: Int) -> Bool {
        guard schemeEnd == 2, bytes[0] | 0x20 == UInt8(ascii: "s"), bytes[1] == UInt8(ascii: "3") else { return false }
        return bytes[(schemeEnd + 3)..<at].allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// `data:<header>,… (<n> bytes)`, `n` the whole URI's length in UTF-8 bytes.
    private static func dataSummary(_ bytes: [UInt8]) -> String {
        // A summary already: summarising it again would count its own bytes.
        if isDataSummary(bytes) { return String(decoding: bytes, as: UTF8.self) }
        // Without a comma there is no header to tell from the payload: show none of it.
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else {
            return "\(String(decoding: bytes[..<5], as: UTF8.self))… (\(grouped(bytes.count)) bytes)"
        }
        // The header is short in practice; bound it so a huge one is not echoed whole.
        let header = String(decoding: bytes[..<Swift.min(comma, 200)], as: UTF8.self)
        return "\(header),… (\(grouped(bytes.count)) bytes)"
    }

    /// The parameters of a query (without `?` and fragment), secrets masked.
    private static func maskedQuery(_ query: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(query.count)
        // Split by hand to keep each separator (`&` or `;`) as it was.
        var parameters: [(separator: UInt8?, text: ArraySlice<UInt8>)] = []
        var start = query.startIndex
        var separator: UInt8?
        for index in query.indices where query[index] == UInt8(ascii: "&") || query[index] == UInt8(ascii: ";") {
            parameters.append((separator, query[start..<index]))
            separator = query[index]
            start = index + 1
        }
        parameters.append((separator, query[start..<query.endIndex]))
        for (separator, parameter) in parameters {
            if let separator { out.append(separator) }
            let equals = parameter.firstIndex(of: UInt8(ascii: "=")) ?? parameter.endIndex
            let name = parameter[parameter.startIndex..<equals]
            if secretParameters.contains(decodedLowercased(name)) {
                out += name
                out.append(UInt8(ascii: "="))
                out += mask.utf8
            } else {
                out += parameter
            }
        }
        return out
    }

    /// A parameter name percent-decoded (`+` as a space) and ASCII-lowercased.
    static func decodedLowercased(_ name: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var index = name.startIndex
        while index < name.endIndex {
            let byte = name[index]
            if byte == UInt8(ascii: "%"), index + 2 < name.endIndex,
                let high = hexValue(name[index + 1]), let low = hexValue(name[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index += 1
        }
        return String(decoding: out.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `12345` → `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// True for this type's own `data:` summary: the header (or `data:`) then `… (<n> bytes)`.
    private static func isDataSummary(_ bytes: [UInt8]) -> Bool {
        isSummaryTail(bytes[5...]) || bytes.firstIndex(of: UInt8(ascii: ",")).map { isSummaryTail(bytes[($0 + 1)...]) } == true
    }

    private static func isSummaryTail(_ tail: ArraySlice<UInt8>) -> Bool {
        let opening = Array("… (".utf8)
        let closing = Array(" bytes)".utf8)
        guard tail.starts(with: opening), tail.count > opening.count + closing.count, tail.reversed().starts(with: closing.reversed())
        else { return false }
        let number = tail.dropFirst(opening.count).dropLast(closing.count)
        return number.first != UInt8(ascii: ",") && number.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ",") }
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: String) -> Bool {
        let expected = Array(prefix.utf8)
        guard bytes.count >= expected.count else { return false }
        return zip(bytes, expected).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
    }

    static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    static let slash = UInt8(ascii: "/")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
}
