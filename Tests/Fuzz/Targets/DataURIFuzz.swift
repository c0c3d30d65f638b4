import DarkroomSources

/// `data:` URIs: the header, the base64 or percent-encoded payload, measured against the size
/// limit before decoding. A URI that decodes stays within the limit and gets a content key.
enum DataURIFuzz {
    /// Small, so the limit is often crossed: the refusal path matters as much as the decode.
    static let maxBytes = 4_096

    static let target = FuzzTarget(
        name: "datauri",
        summary: "data: URIs: media type, base64 and percent payloads, the size limit checked before decoding"
    ) { bytes in
        let reference = SourceReference("data:" + String(decoding: bytes, as: UTF8.self))
        let fetched: FetchedSource
        do throws(SourceError) {
            fetched = try DataURIProvider.decode(reference, maxBytes: Self.maxBytes)
        } catch {
            return  // a typed SourceError is the expected end for a bad URI
        }
        if fetched.bytes.count > Self.maxBytes {
            FuzzFailure.stop("datauri", "decoded \(fetched.bytes.count) bytes under a \(Self.maxBytes)-byte limit")
        }
        let key = fetched.cacheKey
        guard key.hasPrefix("data:"), let hash = key.split(separator: "=").last, hash.count == 64,
            hash.allSatisfy({ $0.isHexDigit })
        else {
            FuzzFailure.stop("datauri", "the cache key \(key.debugDescription) is not data:<type>;sha256=<64 hex digits>")
        }
    }
}
