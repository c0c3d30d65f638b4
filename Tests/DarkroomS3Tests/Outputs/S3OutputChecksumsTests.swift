import DarkroomOutput
import Testing

@testable import DarkroomS3

@Suite("S3 output checksums and owner metadata")
struct S3OutputChecksumsTests {
    @Test("A single PUT's ETag is the MD5 of the bytes (RFC 1321's vector); a multipart ETag the MD5 of the parts' MD5s and the count")
    func etags() {
        #expect(S3OutputChecksums.singlePartETag(Array("abc".utf8)[...]) == "900150983cd24fb0d6963f7d28e17f72")
        let bytes = [UInt8](repeating: 7, count: 10)
        let parts = S3OutputChecksums.md5(bytes[0..<4]) + S3OutputChecksums.md5(bytes[4..<8]) + S3OutputChecksums.md5(bytes[8..<10])
        #expect(S3OutputChecksums.multipartETag(bytes, partSize: 4) == S3OutputChecksums.singlePartETag(parts[...]) + "-3")
    }

    @Test("An object holds the bytes when its stored SHA-256 says so, else when its ETag does; another size never")
    func holds() {
        let bytes = Array("abc".utf8)
        let sha = StoredOutput.sha256(of: bytes)
        let md5 = "900150983cd24fb0d6963f7d28e17f72"
        #expect(S3OutputChecksums.holds(S3OutputHead(etag: md5.uppercased(), size: 3), bytes: bytes, sha256: sha, partSize: 4))
        #expect(
            S3OutputChecksums.holds(
                S3OutputHead(etag: S3OutputChecksums.multipartETag(bytes, partSize: 2), size: 3), bytes: bytes, sha256: sha, partSize: 2))
        #expect(!S3OutputChecksums.holds(S3OutputHead(etag: "kms-etag", size: 3), bytes: bytes, sha256: sha, partSize: 4))
        #expect(S3OutputChecksums.holds(S3OutputHead(etag: "kms-etag", size: 3, metadata: ["darkroom-sha256": sha]), bytes: bytes, sha256: sha, partSize: 4))
        #expect(!S3OutputChecksums.holds(S3OutputHead(etag: md5, size: 3, metadata: ["darkroom-sha256": "00"]), bytes: bytes, sha256: sha, partSize: 4))
        #expect(!S3OutputChecksums.holds(S3OutputHead(etag: md5, size: 4), bytes: bytes, sha256: sha, partSize: 4))
    }

    @Test("The owner travels as two percent-encoded words, whatever characters the job and batch hold")
    func owners() {
        let owner = OutputOwner(job: "photos/2024/café 1%+", batch: "nightly run")
        let value = S3OutputOwnerMetadata.value(owner)
        #expect(value.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 })
        #expect(value.split(separator: " ").count == 2)
        #expect(S3OutputOwnerMetadata.owner(value) == owner)
        #expect(S3OutputOwnerMetadata.owner("one-word") == nil)
        #expect(S3OutputOwnerMetadata.owner("bad%zz b") == nil)
        #expect(S3OutputOwnerMetadata.owner(nil) == nil)
    }
}
