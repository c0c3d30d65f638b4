import DarkroomQueue

/// The checks the job API makes before it acts for a key. Each throws `APIKeyError` with the code
/// of what the key lacks and a message naming the grant or scope to add; none says more about
/// the key than its id.
extension APIKey {
    /// Throws `apikey.scope-missing` unless the key has `scope` (`has(scope:)`).
    public func permits(scope: APIScope) throws(APIKeyError) {
        guard !has(scope: scope) else { return }
        throw APIKeyError(
            .scopeMissing,
            "the API key \(id) lacks the '\(scope)' scope (it has \(sortedScopes.map(\.rawValue).joined(separator: ", ")))")
    }

    /// Throws `apikey.source-not-granted` unless one of the key's source grants covers `source`
    /// (a path, an `http(s)://` URL, a `data:` URI, a plugin's `scheme://…`).
    public func permits(source: String) throws(APIKeyError) {
        try permits(source: source, prefixes: grants.sourcePrefixes)
    }

    /// `permits(source:)` against the key's source grants parsed already (`JobGrantCheck`).
    func permits(source: String, prefixes: [GrantPrefix]) throws(APIKeyError) {
        let target = GrantTarget(source)
        if prefixes.contains(where: { $0.covers(target) }) { return }
        let shown = Self.shown(source)
        if target.scheme == "file", !prefixes.contains(where: \.grantsFiles) {
            throw APIKeyError(.sourceNotGranted, "the API key \(id) is not granted file sources (\(shown)); grant a directory with --allow-source /DIR")
        }
        var message = "the API key \(id) is not granted the source \(shown): it may name \(Self.list(grants.sources))"
        if let problem = target.problem, prefixes.contains(where: { if case .scheme = $0.kind { false } else { true } }) {
            message += " (the source \(problem), so no prefix can cover it)"
        }
        throw APIKeyError(.sourceNotGranted, message)
    }

    /// Throws `apikey.output-not-granted` unless `output` (a job's output directory) is under one
    /// of the key's output grants. No output (the result stays in the cache) needs no grant.
    public func permits(output: String?) throws(APIKeyError) {
        guard output != nil else { return }
        try permits(output: output, prefixes: grants.outputPrefixes)
    }

    /// `permits(output:)` against the key's output grants parsed already (`JobGrantCheck`).
    func permits(output: String?, prefixes: [GrantPrefix]) throws(APIKeyError) {
        guard let output else { return }
        let target = GrantTarget(output)
        if prefixes.contains(where: { $0.covers(target) }) { return }
        let why = target.problem.map { " (it \($0))" } ?? ""
        throw APIKeyError(
            .outputNotGranted,
            "the API key \(id) is not granted the output \(Self.shown(output))\(why): it may write under \(Self.list(grants.outputs))")
    }

    /// Throws `apikey.priority-not-granted` when `priority` is above the key's highest.
    public func permits(priority: JobPriority) throws(APIKeyError) {
        guard priority < grants.maxPriority else { return }
        throw APIKeyError(
            .priorityNotGranted, "the API key \(id) may submit at priority \(grants.maxPriority) at most (asked for \(priority))")
    }

    /// Throws `apikey.webhook-not-granted` unless the key may name the webhook endpoint `name`.
    public func permits(webhook name: String) throws(APIKeyError) {
        guard !grants.webhooks.contains(name) else { return }
        throw APIKeyError(
            .webhookNotGranted, "the API key \(id) may not name the webhook endpoint \(Self.shown(name)): it may name \(Self.list(grants.webhooks))")
    }

    /// Every check a submitted job must pass: the `submit` scope, its source, output, priority
    /// and, when it names one, its webhook endpoint. To check many jobs, parse the grants once
    /// with `jobGrantCheck()`.
    public func permits(job: Job) throws(APIKeyError) {
        try JobGrantCheck(self).permits(job: job)
    }

    private static func list(_ entries: [String]) -> String {
        entries.isEmpty ? "none" : entries.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// A name from the request, quoted, redacted as job records are (`SourceRedaction`: no
    /// credentials, no `data:` payload) and cut to 200 characters.
    private static func shown(_ text: String) -> String {
        "'" + SourceRedaction.redact(text).prefix(200) + "'"
    }
}
