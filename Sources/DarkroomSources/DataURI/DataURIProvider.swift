import DarkroomCore
import DarkroomSystem

/// Reads `data:` URIs (RFC 2397): `data:[<mediatype>][;base64],<data>`, with a base64 or a
/// percent-encoded payload.
///
/// The decoded size is held to `policy.maxBytes` before anything is allocated: a first pass over
/// the encoded payload validates it and computes the exact decoded size (3 bytes per 4 base64
/// characters, 1 byte per `%XX` escape or plain character), stopping as soon as the limit is
/// passed; only then is a buffer of that size filled, and its size is checked again.
///
/// The cache key is content-addressed: `data:` + media type + `;sha256=` + the SHA-256 of the
/// decoded bytes, so the same image written with different whitespace, padding or escapes is one
/// original, and two different images can never share a key (a cheap 64-bit hash could collide).
/// It can only be known after decoding, so `cacheKey(for:)` returns nil.
public struct DataURIProvider: DataProviding {
    public var schemes: Set<String> { ["data"] }

    /// Where payloads larger than `inlineLimit` are decoded and hashed; nil decodes on the
    /// calling task.
    private let pool: BlockingWorkPool?
    /// Decoding and hashing a few hundred KB takes well under a millisecond: not worth a hop.
    private let inlineLimit = 256 << 10

    /// - Parameter pool: threads for decoding large payloads (tens of MB take tens of
    ///   milliseconds to decode and hash), keeping that work off the cooperative pool.
    public init(pool: BlockingWorkPool? = nil) {
        self.pool = pool
    }

    public func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        nil
    }

    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        guard let pool, reference.raw.utf8.count > inlineLimit else {
            return try Self.decode(reference, maxBytes: policy.maxBytes)
        }
        do {
            return try await pool.run { try Self.decode(reference, maxBytes: policy.maxBytes) }
        } catch let error as SourceError {
            throw error
        } catch {
            throw SourceError(.io, source: reference.description, "decoding failed: \(error)")
        }
    }

    /// Parses, measures, decodes and hashes `reference` on the calling thread, refusing a payload
    /// that decodes to more than `maxBytes` before allocating it. `fetch` uses it; so does the
    /// `datauri` fuzz target.
    public static func decode(_ reference: SourceReference, maxBytes: Int) throws(SourceError) -> FetchedSource {
        var raw = reference.raw
        // `withUTF8` is `rethrows`, which erases the error type: carry it out in a `Result`.
        return try raw.withUTF8 { utf8 in
            Result { () throws(SourceError) in try decode(utf8: utf8, maxBytes: maxBytes) }
        }.get()
    }

    /// `decode(_:maxBytes:)` on the URI's UTF-8 bytes.
    private static func decode(utf8: UnsafeBufferPointer<UInt8>, maxBytes: Int) throws(SourceError) -> FetchedSource {
        let prefix = Array("data:".utf8)
        let comma = utf8.firstIndex(of: UInt8(ascii: ","))
        let source = shortForm(utf8, comma: comma)
        func invalid(_ message: String) -> SourceError { SourceError(.invalid, source: source, message) }
        guard utf8.count >= prefix.count,
            zip(utf8.prefix(prefix.count), prefix).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else {
            throw invalid("not a data: URI")
        }
        let afterScheme = prefix.count
        guard let comma, comma >= afterScheme else {
            throw invalid("a data: URI needs a ',' between its media type and its payload")
        }
        let headerText = String(decoding: UnsafeBufferPointer(rebasing: utf8[afterScheme..<comma]), as: UTF8.self)
        let header: DataURIHeader
        switch DataURIHeader.parse(Substring(headerText)) {
        case .success(let parsed): header = parsed
        case .failure(let error): throw invalid(error.message)
        }
        let payload = UnsafeBufferPointer(rebasing: utf8[(comma + 1)...])

        let bytes: [UInt8]
        if header.isBase64 {
            do throws(Base64PayloadError) {
                let count = try Base64Payload.measure(payload, limit: maxBytes)
                bytes = try Base64Payload.decode(payload, count: count)
            } catch .overLimit(let limit) {
                throw SourceError(.tooLarge, source: source, Base64PayloadError.overLimit(limit: limit).message)
            } catch {
                throw invalid(error.message)
            }
        } else {
            // Each decoded byte is one character or one `%XX` escape, so a third of the length is
            // a lower bound on the size: absurd payloads are refused without scanning them.
            if payload.count / 3 > maxBytes {
                throw tooLarge(source, atLeast: payload.count / 3, maxBytes: maxBytes)
            }
            let escapeError = { (error: PercentDecodingError) in
                invalid("'%' at payload offset \(error.offset) is not followed by two hexadecimal digits")
            }
            let count: Int
            do throws(PercentDecodingError) { count = try PercentDecoding.decodedCount(payload) } catch {
                throw escapeError(error)
            }
            guard count <= maxBytes else { throw tooLarge(source, atLeast: count, maxBytes: maxBytes) }
            do throws(PercentDecodingError) { bytes = try PercentDecoding.decode(payload) } catch {
                throw escapeError(error)
            }
        }
        // Checked again after decoding, so no path can hand on more than the limit.
        if bytes.count > maxBytes { throw tooLarge(source, atLeast: bytes.count, maxBytes: maxBytes) }

        let digest = SHA256Hasher.hexDigest(of: bytes)
        return FetchedSource(
            bytes: bytes,
            cacheKey: "data:\(header.mediaType ?? "");sha256=\(digest)",
            finalLocation: source,
            contentType: header.mediaType)
    }

    /// The URI for messages and `finalLocation`: cut after the header as
    /// `SourceReference.description` does (`data:image/png;base64,…(123 bytes)`), computed from
    /// the bytes, since counting the characters of a 50 MB string takes tens of milliseconds.
    static func shortForm(_ utf8: UnsafeBufferPointer<UInt8>, comma: Int?) -> String {
        let headerEnd = comma ?? min(utf8.count, 64)
        let head = String(decoding: UnsafeBufferPointer(rebasing: utf8[..<headerEnd]), as: UTF8.self)
        if comma == nil && headerEnd == utf8.count { return head }
        return "\(head)\(comma == nil ? "" : ",")…(\(utf8.count) bytes)"
    }

    private static func tooLarge(_ source: String, atLeast size: Int, maxBytes: Int) -> SourceError {
        SourceError(
            .tooLarge, source: source,
            "the data: payload decodes to \(size) bytes or more, over the source size limit of \(maxBytes) bytes (raise it with --max-source-mb)")
    }
}
