/// The rule for `process` and `run` output paths: a path on this machine, or a bucket
/// (`s3://[ALIAS@]BUCKET/…`, written through `BucketOutput`). Any other URL given as `-o`/`--out`
/// is refused rather than taken as a relative path (which would make a directory named `https:`
/// and write there).
enum LocalOutputPath {
    /// Throws when `path` (given with `flag`) is a URL other than an `s3://` destination.
    static func check(_ path: String?, flag: String, command: String) throws(UsageFailure) {
        guard let path, let separator = path.range(of: "://") else { return }
        let scheme = path[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return }
        if scheme.lowercased() == "s3" { return }
        throw UsageFailure(
            "\(command) writes files on this machine or objects in a bucket; \(flag) takes a path or s3://BUCKET/PREFIX/, not another URL (got \(path))"
        )
    }
}
