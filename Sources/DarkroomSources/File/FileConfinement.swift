import Glibc

/// Where a file source really is, and the directory it was admitted under.
struct ConfinedFile {
    /// The `realpath` of the source: absolute, no symbolic links, no `.` or `..`.
    var resolved: FilePath
    /// The allowed root (itself resolved) that contains `resolved`, or `/` when the policy allows
    /// every file. The file is opened by walking down from this directory.
    var base: FilePath
}

/// Applies `SourcePolicy.fileRoots` to a path.
///
/// The path is resolved first (symbolic links followed, `..` applied, by `realpath`), and the
/// result must lie inside one of the roots, each also resolved, compared at a path-component
/// boundary. So a link inside a root pointing outside is refused, a link outside pointing inside
/// is allowed, and `/data/img` does not admit `/data/imgevil`. A root that does not exist or is
/// not a directory admits nothing.
enum FileConfinement {
    static func confine(_ path: FilePath, policy: SourcePolicy, source: String) throws(SourceError) -> ConfinedFile {
        if let roots = policy.fileRoots, roots.isEmpty {
            throw SourceError(
                .refused, source: source,
                "file sources are not allowed here; pass --allow-file-root DIR to allow files under DIR")
        }
        let resolvedRoots = (policy.fileRoots ?? []).compactMap(resolvedDirectory)
        switch path.resolved() {
        case .success(let resolved):
            guard let roots = policy.fileRoots else {
                return ConfinedFile(resolved: resolved, base: FilePath("/"))
            }
            // The longest matching root: the walk down from it is then the shortest.
            guard let base = resolvedRoots.filter({ resolved.isWithin($0) }).max(by: { $0.bytes.count < $1.bytes.count })
            else { throw outsideRoots(source: source, roots: roots) }
            return ConfinedFile(resolved: resolved, base: base)
        case .failure(let error):
            // The path cannot be resolved (missing, unreadable directory, link loop). When roots
            // apply, say "not found" only for paths that are inside a root as written: anything
            // else is refused, so a queued job cannot probe which files exist elsewhere.
            if let roots = policy.fileRoots {
                let lexical = path.lexicallyNormalized
                let configured = roots.map { FilePath($0).lexicallyNormalized }
                guard (resolvedRoots + configured).contains(where: { lexical.isWithin($0) }) else {
                    throw outsideRoots(source: source, roots: roots)
                }
            }
            throw FileErrors.error(error, path: path, source: source, operation: "resolving")
        }
    }

    /// The resolved form of `root` when it is an existing directory.
    private static func resolvedDirectory(_ root: String) -> FilePath? {
        guard !root.isEmpty, case .success(let resolved) = FilePath(root).resolved() else { return nil }
        var info = stat()
        let isDirectory = resolved.withCString { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFDIR
        return isDirectory ? resolved : nil
    }

    private static func outsideRoots(source: String, roots: [String]) -> SourceError {
        SourceError(
            .refused, source: source,
            "the file is outside the allowed file roots (\(roots.joined(separator: ", "))); symbolic links "
                + "and '..' are resolved before the check; pass --allow-file-root DIR to allow another directory")
    }
}
