import DarkroomSystem

/// How the canonical request writes a request's path.
public enum SigV4PathRule: Sendable, Hashable {
    /// S3's rule: every segment of the raw path encoded once (`SigV4Encoding.encode`), `/` kept,
    /// nothing removed: `a//b/./c` stays three-segment-and-dot, as S3 stores keys literally.
    case s3
    /// Every other AWS service's rule, the one AWS's generic test suite uses: `.` and `..`
    /// segments resolved and empty segments dropped (`//example//` → `/example/`), then each
    /// segment encoded once.
    case normalized
}

/// The percent-encoding and canonical forms of Signature Version 4.
public enum SigV4Encoding {
    /// `text` with every byte outside the unreserved set (`A-Z a-z 0-9 - . _ ~`) written as
    /// `%XX` (upper-case hex), over its UTF-8 bytes; `/` kept when `keepSlash`. This is the one
    /// encoding SigV4 allows: a space is `%20`, never `+`.
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepSlash && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(HexDigits.uppercaseDigits[Int(byte >> 4)])
                out.append(HexDigits.uppercaseDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The canonical URI of a raw (not yet encoded) path that starts with `/`. The request is
    /// sent with this same text as its path, so what is signed is what the server reads.
    public static func canonicalPath(_ rawPath: String, rule: SigV4PathRule) -> String {
        let path = rawPath.hasPrefix("/") ? rawPath : "/" + rawPath
        switch rule {
        case .s3:
            return encode(path, keepSlash: true)
        case .normalized:
            var kept: [Substring] = []
            for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                if segment == "." { continue }
                if segment == ".." {
                    _ = kept.popLast()
                    continue
                }
                kept.append(segment)
            }
            let trailing = path.hasSuffix("/") && !kept.isEmpty
            return "/" + kept.map { encode(String($0)) }.joined(separator: "/") + (trailing ? "/" : "")
        }
    }

    /// The canonical query: each name and value encoded, the pairs sorted by encoded name, then by
    /// encoded value, joined with `&`. A parameter without a value is written `name=`.
    public static func canonicalQuery(_ parameters: [(name: String, value: String)]) -> String {
        var pairs: [(name: String, value: String)] = parameters.map { (encode($0.name), encode($0.value)) }
        // Encoded text is ASCII, where String's order is byte order.
        pairs.sort { (left: (name: String, value: String), right: (name: String, value: String)) -> Bool in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return pairs.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// A header value as signed: leading and trailing spaces and tabs removed, each run of
    /// spaces inside collapsed to one (SigV4's "Trimall").
    public static func canonicalHeaderValue(_ value: String) -> String {
        var out: [UInt8] = []
        var pendingSpace = false
        for byte in value.utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(UInt8(ascii: " ")) }
            pendingSpace = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
