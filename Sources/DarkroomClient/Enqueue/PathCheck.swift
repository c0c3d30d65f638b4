import DarkroomQueue
import DarkroomSystem
import Foundation

/// The check that jobs' files are ones a live worker would accept: a file source inside some live
/// worker's `--allow-file-root`, an output directory inside some live worker's
/// `--allow-output-root`, and — when this host sees the source's directory, so it sees the shared
/// volume — a source that exists and is a file. A job that fails one of these can only fail on
/// the worker, after a wait and an attempt; `enqueue` refuses it instead, unless told to enqueue
/// anyway (`--allow-unoffered`: a worker with other roots may be about to start).
///
/// Paths are compared as text after `PathResolver` made them absolute (the worker resolves
/// symbolic links itself and may still refuse). Workers that do not advertise roots (older ones)
/// count as accepting every path; with no live worker the roots are not checked.
enum PathCheck {
    /// What the enqueuing host sees at a path.
    enum LocalFile: Equatable {
        case file
        case directory
        /// Nothing there, while its directory exists: the file is missing.
        case missing
        /// Its directory is not visible here either: this host may not mount the volume.
        case unknown
    }

    /// Problems (at most `limit`), one per job that no live worker would accept, naming the
    /// source and why; none when `allowUnoffered`. The files are looked up on a `pool` thread:
    /// `stat` blocks (a slow network volume for seconds), and `prepare` runs on the cooperative
    /// pool, for `darkroom enqueue` and for every request to the HTTP job API.
    static func check(
        _ jobs: [Job], workers: [WorkerInfo], allowUnoffered: Bool, limit: Int, pool: BlockingWorkPool
    ) async -> [EnqueueProblem] {
        guard !allowUnoffered else { return [] }
        // URLs and `data:` sources need no look-up, so no thread hop either.
        guard jobs.contains(where: { localPath($0.source) != nil }) else {
            return check(jobs, workers: workers, allowUnoffered: false, limit: limit) { _ in .unknown }
        }
        return await pool.run {
            let looker = PathLooker()
            return check(jobs, workers: workers, allowUnoffered: false, limit: limit, look: looker.look)
        }
    }

    /// `check`, on the calling thread, asking `look` what this host sees at each source path.
    static func check(
        _ jobs: [Job], workers: [WorkerInfo], allowUnoffered: Bool, limit: Int, look: (String) -> LocalFile
    ) -> [EnqueueProblem] {
        guard !allowUnoffered else { return [] }
        // Unknown roots (an older worker) accept anything, as before roots were advertised.
        let fileRoots: [[String]]? = workers.isEmpty || workers.contains { $0.fileRoots == nil } ? nil : workers.compactMap(\.fileRoots)
        let outputRoots: [[String]]? =
            workers.isEmpty || workers.contains { $0.outputRoots == nil } ? nil : workers.compactMap(\.outputRoots)
        var problems: [EnqueueProblem] = []
        for job in jobs where problems.count < limit {
            guard let reason = problem(job, fileRoots: fileRoots, outputRoots: outputRoots, look: look) else { continue }
            problems.append(
                EnqueueProblem(
                    .unreachablePath, location: "source '\(SafeText.sanitized(String(job.source.prefix(120))))'",
                    message: reason + "; pass --allow-unoffered to enqueue it anyway"))
        }
        return problems
    }

    static func problem(_ job: Job, fileRoots: [[String]]?, outputRoots: [[String]]?, look: (String) -> LocalFile) -> String? {
        if let path = localPath(job.source) {
            switch look(path) {
            case .missing: return "no such file (checked on this host, which sees its directory)"
            case .directory: return "is a directory, not an image file"
            case .file, .unknown: break
            }
            if let fileRoots, !fileRoots.contains(where: { inside(path, $0) }) {
                return "no live worker may read it: it is outside every worker's --allow-file-root (\(listed(fileRoots)))"
            }
        }
        // An object-storage output is not under a root: `output:s3` is what a worker must offer.
        if let output = job.output, let outputRoots, !Capabilities.isObjectStorageDestination(output),
            !outputRoots.contains(where: { inside(output, $0) })
        {
            return "no live worker may write its output to '\(output)': it is outside every worker's --allow-output-root (\(listed(outputRoots)))"
        }
        return nil
    }

    /// The file path of a source, or nil for a URL or `data:` URI.
    static func localPath(_ source: String) -> String? {
        if source.hasPrefix("/") { return source }
        if source.lowercased().hasPrefix("file://") { return URL(string: source)?.path }
        return nil
    }

    /// Whether `path` is one of `roots` or below one.
    static func inside(_ path: String, _ roots: [String]) -> Bool {
        roots.contains { root in
            let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
            return base == "/" || path == base || path.hasPrefix(base + "/")
        }
    }

    private static func listed(_ roots: [[String]]) -> String {
        let all = Array(Set(roots.flatMap { $0 })).sorted()
        return all.isEmpty ? "none" : all.prefix(4).joined(separator: ", ") + (all.count > 4 ? ", …" : "")
    }
}
