import DarkroomOutput
import DarkroomQueue

/// `run` and `process` writing their outputs to a bucket (`--out s3://[ALIAS@]BUCKET/PREFIX/`,
/// `process -o s3://[ALIAS@]BUCKET/KEY`; docs/object-storage.md#outputs): through the sink a
/// worker has (`S3OutputOptions.sink`, a `RoutedOutputSink` with the `S3Sink`), so there is one
/// way outputs reach a bucket. The destination is checked before any work: a bucket that is not
/// allowed, an unknown endpoint or a bad key is a usage error (exit 2).
enum BucketOutput {
    /// Whether `path` (an `-o`/`--out` value) names a bucket rather than a file or directory.
    static func isBucket(_ path: String?) -> Bool {
        path.map(Capabilities.isObjectStorageDestination) ?? false
    }

    /// The sink for `destination` (an `s3://` prefix, given with `flag`), after `prepare` accepted
    /// it. Files go nowhere through it: its volume has no root.
    static func sink(
        for destination: String, flag: String, s3: S3Options, outputs: S3OutputOptions
    ) async throws(UsageFailure) -> any OutputSink {
        let made = try outputs.sink(volume: VolumeSink(roots: [], durable: false), configuration: try s3.configuration(), pool: S3OutputOptions.pool)
        guard made.s3 != nil else {
            throw UsageFailure(
                "\(flag) \(destination) is a bucket, and none is allowed: add --s3-endpoint and --allow-bucket (docs/object-storage.md)")
        }
        do throws(OutputError) {
            try await made.outputs.prepare(destination)
        } catch {
            throw UsageFailure("\(flag): \(error.message) [\(error.code.rawValue)]")
        }
        return made.outputs
    }

    /// `s3://[ALIAS@]BUCKET/PATH/NAME` as the sink's destination (`s3://[ALIAS@]BUCKET/PATH/`) and
    /// output name (`NAME`), so the object's key is the URL's as given; nil when the URL does not
    /// end in a name (`s3://b`, `s3://b/dir/`) or the name is not one an output may have.
    static func split(_ url: String) -> (destination: String, name: String)? {
        guard let slash = url.lastIndex(of: "/") else { return nil }
        let destination = String(url[...slash])
        let name = String(url[url.index(after: slash)...])
        guard destination.utf8.count > "s3://".utf8.count, OutputName.isValid(name) else { return nil }
        return (destination, name)
    }

    /// A `--out s3://…` prefix as `process` joins names to it (`PREFIX/NAME`): without trailing
    /// slashes, so `s3://b/p/` and `s3://b/p` name the same objects, as a directory would.
    static func prefix(_ url: String) -> String {
        var prefix = Substring(url)
        while prefix.hasSuffix("/"), prefix.utf8.count > "s3://".utf8.count + 1 { prefix = prefix.dropLast() }
        return String(prefix)
    }
}
