import Crypto
import DarkroomOutput
import DarkroomSystem

/// How `S3Sink` tells whether an object under a key holds exactly an output's bytes, without
/// downloading it: the SHA-256 it stored in the object's metadata (`darkroom-sha256`) when the
/// HEAD shows it, else the ETag. S3's ETag of a single PUT is the MD5 of the bytes, and of a
/// multipart upload the MD5 of the parts' MD5s followed by `-` and the part count — computable
/// here, since the sink chose the part size. (An ETag of another kind, SSE-KMS's, matches
/// neither: the object then counts as different, which refuses rather than overwrites.)
enum S3OutputChecksums {
    /// The user-metadata name of the output's SHA-256.
    static let sha256Key = "darkroom-sha256"

    /// The ETag S3 gives `bytes` written in one PUT: their MD5 in lower-case hexadecimal.
    static func singlePartETag(_ bytes: ArraySlice<UInt8>) -> String {
        HexDigits.lowercase(md5(bytes))
    }

    /// The ETag S3 gives `bytes` written as parts of `partSize` bytes.
    static func multipartETag(_ bytes: [UInt8], partSize: Int) -> String {
        var digests: [UInt8] = []
        var count = 0
        for start in stride(from: 0, to: bytes.count, by: max(1, partSize)) {
            digests.append(contentsOf: md5(bytes[start..<min(bytes.count, start + partSize)]))
            count += 1
        }
        return HexDigits.lowercase(md5(digests[...])) + "-\(count)"
    }

    /// The MD5 digest of `bytes` (an integrity check S3 defines, not a security one).
    static func md5(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var hasher = Insecure.MD5()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return Array(hasher.finalize())
    }

    /// Whether the object `head` describes holds exactly `bytes` (whose SHA-256 is `sha256`).
    static func holds(_ head: S3OutputHead, bytes: [UInt8], sha256: String, partSize: Int) -> Bool {
        guard head.size == bytes.count else { return false }
        if let stored = head.metadata[sha256Key] { return stored.lowercased() == sha256 }
        let etag = head.etag.lowercased()
        if etag.contains("-") { return etag == multipartETag(bytes, partSize: partSize) }
        return etag == singlePartETag(bytes[...])
    }
}

/// The owner of an output as object metadata: `darkroom-owner: JOB BATCH`, each percent-encoded
/// (job ids and batches may hold any character but controls; metadata values travel as ASCII
/// header values).
enum S3OutputOwnerMetadata {
    static let key = "darkroom-owner"

    static func value(_ owner: OutputOwner) -> String {
        encode(owner.job) + " " + encode(owner.batch)
    }

    static func owner(_ value: String?) -> OutputOwner? {
        guard let parts = value?.split(separator: " ", omittingEmptySubsequences: false), parts.count == 2,
            let job = decode(parts[0]), let batch = decode(parts[1])
        else { return nil }
        return OutputOwner(job: job, batch: batch)
    }

    /// Letters, digits and `-._~` as they are; every other byte as `%XX`.
    static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(HexDigits.uppercaseDigits[Int(byte >> 4)])
                out.append(HexDigits.uppercaseDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(HexDigits.value), let low = bytes.next().flatMap(HexDigits.value) else { return nil }
            out.append(high << 4 | low)
        }
        return String(validating: out, as: UTF8.self)
    }
}
