extension Capabilities {
    /// The prefix of the bucket capabilities (docs/queue.md#capabilities-jobs-that-say-what-they-need).
    static let bucketPrefix = "s3:"

    /// The capability of using the bucket `name` on the endpoint `alias` (`s3:ALIAS@BUCKET`):
    /// offered by a worker for each bucket it allows (`--allow-bucket`), required by a job whose
    /// source or output is in that bucket, so that only a worker that allows the bucket is handed
    /// the job, and `enqueue` refuses a job whose bucket no live worker allows.
    ///
    /// The alias is always written (`s3:default@uploads`), so the form is one per bucket. A name
    /// longer than a capability may be (64 bytes: a long alias and a long bucket) is written
    /// `s3:fnv:` and the 64-bit FNV-1a digest of `ALIAS@BUCKET` in 16 hex digits; it never holds
    /// `@`, so it cannot be mistaken for the plain form. A digest shared by two buckets would
    /// only let a worker that allows one be handed a job for the other, which it then refuses
    /// (`source.refused`), as every worker did before buckets were advertised.
    public static func bucket(alias: String, name: String) -> String {
        let plain = bucketPrefix + alias + "@" + name
        if plain.utf8.count <= 64 { return plain }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (alias + "@" + name).utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return bucketPrefix + "fnv:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The bucket capability of an `s3://[ALIAS@]BUCKET[;etag=…]/…` source or destination (`bucket(alias:name:)`;
    /// the alias `default` when none is written), or nil when `text` is not one or its bucket
    /// part is not a bucket (the worker then refuses it with a message of its own).
    public static func bucketRequirement(_ text: String) -> String? {
        guard text.utf8.count > 5, text.prefix(5).lowercased() == "s3://" else { return nil }
        let rest = text.dropFirst(5)
        // `;etag=…` after the bucket pins a listed source's ETag (`S3SourceAddress`): not the bucket's.
        let authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == ";" }) ?? rest.endIndex)]
        let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2, let name = parts.last, !name.isEmpty, name.utf8.count <= 255 else { return nil }
        let alias = parts.count == 2 ? parts[0] : "default"
        // The characters `S3Endpoint.isValidAlias` and `S3Bucket.isValidName` allow, all of them
        // capability characters: anything else is a source the worker refuses anyway.
        guard (1...32).contains(alias.utf8.count), alias.utf8.allSatisfy(isAliasByte), name.utf8.allSatisfy(isBucketByte) else {
            return nil
        }
        return bucket(alias: String(alias), name: String(name))
    }

    private static func isAliasByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D
    }

    private static func isBucketByte(_ byte: UInt8) -> Bool {
        isAliasByte(byte) || (0x41...0x5A).contains(byte) || byte == 0x2E || byte == 0x5F
    }
}
