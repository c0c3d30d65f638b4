import Glibc

/// The S3 responses Darkroom reads, decoded from their XML.
enum S3XMLResponses {
    /// `ListBucketResult` of ListObjectsV2 (keys decoded when `EncodingType` is `url`).
    static func listPage(_ root: S3XMLElement) throws(S3XMLError) -> S3ListPage {
        guard root.name == "ListBucketResult" else { throw S3XMLError("expected ListBucketResult, got \(root.name.prefix(40))") }
        let decode = root.value("EncodingType") == "url"
        var objects: [S3ListedObject] = []
        for content in root.children("Contents") {
            guard let rawKey = content.value("Key") else { throw S3XMLError("a Contents element without a Key") }
            guard let size = content.value("Size").flatMap({ Int($0.trimmingSpaces) }), size >= 0 else {
                throw S3XMLError("a Contents element without a valid Size")
            }
            let key = decode ? S3XMLReader.urlDecode(rawKey) : rawKey
            objects.append(S3ListedObject(key: key, size: size, etag: unquotedETag(content.value("ETag") ?? "")))
        }
        let truncated = root.value("IsTruncated")?.trimmingSpaces == "true"
        let token = root.value("NextContinuationToken").flatMap { $0.isEmpty ? nil : $0 }
        if truncated && token == nil { throw S3XMLError("a truncated listing without a NextContinuationToken") }
        return S3ListPage(objects: objects, nextContinuationToken: truncated ? token : nil)
    }

    /// `ListMultipartUploadsResult`: the uploads and the markers of the next page, if any.
    static func uploadsPage(_ root: S3XMLElement) throws(S3XMLError) -> (
        uploads: [S3MultipartUpload], next: (keyMarker: String, uploadIDMarker: String)?
    ) {
        guard root.name == "ListMultipartUploadsResult" else {
            throw S3XMLError("expected ListMultipartUploadsResult, got \(root.name.prefix(40))")
        }
        let decode = root.value("EncodingType") == "url"
        var uploads: [S3MultipartUpload] = []
        for upload in root.children("Upload") {
            guard let rawKey = upload.value("Key"), let id = upload.value("UploadId"), !id.isEmpty else {
                throw S3XMLError("an Upload element without a Key or UploadId")
            }
            let initiated = upload.value("Initiated") ?? ""
            uploads.append(
                S3MultipartUpload(
                    key: decode ? S3XMLReader.urlDecode(rawKey) : rawKey, uploadID: id, initiated: initiated,
                    initiatedEpochSeconds: epochSeconds(iso8601: initiated)))
        }
        guard root.value("IsTruncated")?.trimmingSpaces == "true" else { return (uploads, nil) }
        guard let key = root.value("NextKeyMarker"), let id = root.value("NextUploadIdMarker") else {
            throw S3XMLError("a truncated upload listing without NextKeyMarker and NextUploadIdMarker")
        }
        return (uploads, (decode ? S3XMLReader.urlDecode(key) : key, id))
    }

    /// The `<Code>` of an `<Error>` body, when it looks like a code: 1 to 64 letters, digits,
    /// `.`, `-`, `_`. Anything else in the body is never read, so nothing of it reaches a message.
    static func errorCode(_ body: [UInt8]) -> String? {
        guard !body.isEmpty, let root = try? S3XMLElement.parse(body), root.name == "Error",
            let code = root.value("Code")?.trimmingSpaces, (1...64).contains(code.utf8.count),
            code.utf8.allSatisfy({ SigV4Encoding.isUnreserved($0) && $0 != UInt8(ascii: "~") })
        else { return nil }
        return code
    }

    /// An ETag without its surrounding quotes (S3 sends `"…"`; some servers add `W/`).
    static func unquotedETag(_ etag: String) -> String {
        var text = Substring(etag.trimmingSpaces)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        return String(text)
    }

    /// `2026-11-27T21:00:00.000Z` (fraction and `Z` optional) in seconds since 1970, or nil.
    static func epochSeconds(iso8601 text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            guard range.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else { return nil }
            return range.reduce(Int32(0)) { $0 * 10 + Int32(bytes[$1] - 0x30) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int(timegm(&parts))
    }
}

extension String {
    var trimmingSpaces: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !S3XMLReader.isSpace($0) }),
            let last = bytes.lastIndex(where: { !S3XMLReader.isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
