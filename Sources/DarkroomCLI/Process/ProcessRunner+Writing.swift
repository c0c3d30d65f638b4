import DarkroomOutput
import DarkroomPipeline

extension ProcessRunner {
    /// Where one output went: its file path, or its object's `s3://` URL with the SHA-256 and the
    /// ETag a worker's event reports (nil for a file: `process` reports neither for files).
    struct Written: Sendable {
        var location: String
        var sha256: String?
        var etag: String?
    }

    /// Writes `bytes` to `path`: a file written atomically, or for an `s3://` path the object
    /// under the path's key, through `bucketOutputs`. An object is replaced as a file is
    /// (`.replace`: `process` names its outputs itself and overwrites them on a second run).
    func write(_ bytes: [UInt8], to path: String) async throws -> Written {
        guard BucketOutput.isBucket(path), let sink = bucketOutputs else {
            try await pipeline.runBlocking { try FileIO.writeAtomically(bytes, to: path) }
            return Written(location: path)
        }
        // The plan made every bucket path PREFIX/NAME with a valid name (`BucketOutput.split`).
        guard let split = BucketOutput.split(path) else {
            throw OutputError(.notAllowed, "\(path) refused: the key does not end in an output name")
        }
        let stored = try await sink.store(bytes, named: split.name, in: split.destination, owner: nil, onConflict: .replace)
        return Written(location: stored.location, sha256: stored.sha256, etag: stored.etag)
    }
}
