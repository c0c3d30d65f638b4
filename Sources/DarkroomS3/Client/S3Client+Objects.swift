import Crypto
import Foundation

extension S3Client {
    /// `GetObject`: the whole object, at most `maxBytes` (more stops the transfer: `tooLarge`).
    public func getObject(bucket: String, key: String, maxBytes: Int) async throws(S3Error) -> S3Object {
        let call = Call(operation: "GetObject", method: "GET", bucket: bucket, key: key, maxBytes: maxBytes)
        let response = try await send(call)
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag")
        }
        return S3Object(
            bytes: response.body, etag: etag, contentType: response.header("content-type"),
            lastModified: response.header("last-modified"))
    }

    /// `HeadObject`: the object's ETag, size and type, without its bytes.
    public func headObject(bucket: String, key: String) async throws(S3Error) -> S3ObjectHead {
        let call = Call(operation: "HeadObject", method: "HEAD", bucket: bucket, key: key, maxBytes: 0)
        let response = try await send(call)
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty,
            let size = response.header("content-length").flatMap({ Int($0) }), size >= 0
        else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag or Content-Length")
        }
        return S3ObjectHead(etag: etag, size: size, contentType: response.header("content-type"))
    }

    /// Single PUT with Content-MD5 (the server refuses a corrupted body), Content-Type,
    /// Cache-Control. Returns the ETag.
    public func putObject(
        bucket: String, key: String, bytes: [UInt8], contentType: String?, cacheControl: String?
    ) async throws(S3Error) -> String {
        var headers = Self.contentHeaders(contentType: contentType, cacheControl: cacheControl)
        headers.append(("Content-MD5", Self.contentMD5(bytes)))
        let call = Call(
            operation: "PutObject", method: "PUT", bucket: bucket, key: key, headers: headers, body: bytes, maxBytes: Self.xmlLimit)
        let response = try await send(call)
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag")
        }
        return etag
    }

    /// `Content-MD5`: the base64 of the body's MD5 digest. The server computes it again and
    /// refuses a body that differs (`BadDigest`), so a corrupted upload is never stored.
    public static func contentMD5(_ bytes: [UInt8]) -> String {
        Data(Insecure.MD5.hash(data: bytes)).base64EncodedString()
    }

    static func contentHeaders(contentType: String?, cacheControl: String?) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        return headers
    }

    /// Parses an XML answer, or throws `badResponse` naming the call.
    func xml(_ response: S3HTTPResponse, _ call: Call) throws(S3Error) -> S3XMLElement {
        do {
            return try S3XMLElement.parse(response.body)
        } catch {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the XML answer could not be read (\(error))")
        }
    }
}
