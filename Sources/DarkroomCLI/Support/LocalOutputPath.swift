/// The rule for `process` and `run` output paths: they write files on this machine, so a URL given
/// as `-o`/`--out` is refused rather than taken as a relative path (which would make a directory
/// named `s3:` and write there).
enum LocalOutputPath {
    /// Throws when `path` (given with `flag`) is a URL such as `s3://bucket/prefix/`, saying how to
    /// write to a bucket instead: through the queue, where workers upload.
    static func check(_ path: String?, flag: String, command: String) throws(UsageFailure) {
        guard let path, let separator = path.range(of: "://") else { return }
        let scheme = path[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return }
        if scheme.lowercased() == "s3" {
            throw UsageFailure(
                "\(command) writes files on this machine; \(flag) \(path) is a bucket: enqueue the jobs for workers instead "
                    + "(darkroom enqueue … --out \(path), with --s3-endpoint and --allow-bucket on the workers; docs/object-storage.md)")
        }
        throw UsageFailure("\(command) writes files on this machine; \(flag) takes a path, not a URL (got \(path))")
    }
}
