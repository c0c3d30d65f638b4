import CDarkroomPlugin
import DarkroomChains
import DarkroomCore
import DarkroomSources
import DarkroomSystem
import Synchronization

/// A provider from a plugin's C descriptor.
///
/// `@unchecked Sendable` for the same reason as `ExternalProcessorEntry`: the descriptor and its
/// `user_data` never change and never go away, and `fetch` must be thread-safe (ABI rules).
struct ExternalProviderEntry: @unchecked Sendable {
    let scheme: String
    let module: PluginModuleIdentity
    let userData: UnsafeMutableRawPointer?
    let fetch:
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<darkroom_byte_sink>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<darkroom_error>?
        ) -> darkroom_status

    var subject: String { "provider '\(scheme):' (\(module))" }
}

/// Fetches sources of a plugin's scheme, with Darkroom's limits and source policy kept by the
/// host, never by the plugin:
///
/// - the scheme is refused unless the operator allowed it (`--allow-plugin-scheme`), and a
///   non-empty `--allow-source` list must hold a prefix the URL starts with;
/// - the bytes stream in through the sink, which stops the plugin (`write` returns non-zero) as
///   soon as they pass `--max-source-mb` or the fetch timeout has passed;
/// - the whole fetch races the timeout: a plugin that blocks without calling back fails its job
///   with `source.timeout` when the time is up (its thread, one of the provider's own, stays busy
///   until the plugin returns).
struct ExternalProvider: DataProviding {
    let entry: ExternalProviderEntry
    /// The provider's own threads (`threadCount`), never the HTTP provider's: a plugin that
    /// blocks past its timeout holds one of these until it returns, and only its own scheme's
    /// fetches queue behind it.
    let pool: BlockingWorkPool

    /// Fetches of one plugin scheme at once, per pipeline.
    static let threadCount = 8

    var schemes: Set<String> { [entry.scheme] }

    func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        try check(reference, policy: policy)
        // The URL as written, with its scheme lower-cased, names the content: the plugin decides
        // what its URLs mean, so nothing more can be normalised here.
        return entry.scheme + reference.raw.drop { $0 != ":" }
    }

    func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        let key = try cacheKey(for: reference, policy: policy) ?? reference.raw
        let sink = HostByteSink(maxBytes: policy.maxBytes, timeout: policy.totalTimeout)
        let entry = self.entry
        let pool = self.pool
        let source = reference.raw
        let timeout = policy.totalTimeout
        let outcome: Result<[UInt8], SourceError>
        do {
            // The plugin cannot be interrupted: past the timeout the job stops waiting for it,
            // and the sink tells the plugin to stop at its next call.
            outcome = try await DetachedWait.run(deadline: .saturatingSeconds(timeout)) {
                try await pool.run { Self.run(entry, source: source, sink: sink) }
            }
        } catch is DetachedWait.TimedOut {
            sink.stop()
            throw SourceError(
                .timeout, source: source, "\(entry.subject) did not finish within \(ArgumentValue.format(timeout)) s (--fetch-timeout)")
        } catch is CancellationError {
            sink.stop()
            throw SourceError(.timeout, source: source, "\(entry.subject) was cancelled")
        } catch {
            throw SourceError(.io, source: source, "\(entry.subject) could not run: \(error)")
        }
        let bytes = try outcome.get()
        return FetchedSource(bytes: bytes, cacheKey: key, finalLocation: source)
    }

    /// Calls the plugin on a pool thread and turns what it did into bytes or an error.
    private static func run(_ entry: ExternalProviderEntry, source: String, sink: HostByteSink) -> Result<[UInt8], SourceError> {
        // A fetch that waited for a thread past its deadline (the job has failed already) does
        // not call the plugin at all.
        if sink.shouldStop {
            return .failure(
                SourceError(.timeout, source: source, "\(entry.subject) could not start within \(ArgumentValue.format(sink.timeout)) s (--fetch-timeout)"))
        }
        var error = darkroom_error()
        let status = sink.withCSink { cSink in
            source.withCString { entry.fetch($0, cSink, entry.userData, &error) }
        }
        if let stop = sink.stopReason {
            switch stop {
            case .tooLarge(let limit):
                return .failure(
                    SourceError(
                        .tooLarge, source: source, "\(entry.subject) sent more than the source size limit of \(limit) bytes (raise it with --max-source-mb)"))
            case .timedOut(let seconds):
                return .failure(
                    SourceError(.timeout, source: source, "\(entry.subject) did not finish within \(ArgumentValue.format(seconds)) s (--fetch-timeout)"))
            case .stopped:
                return .failure(SourceError(.timeout, source: source, "\(entry.subject) was stopped"))
            case .invalidWrite:
                return .failure(.plugin(source: source, "\(entry.subject) wrote from a NULL pointer", transient: false))
            }
        }
        guard status == DARKROOM_OK else {
            let failure = PluginFailure.from(status: status, error: &error, subject: entry.subject)
            return .failure(.plugin(source: source, failure.description, transient: failure.isTransient))
        }
        return .success(sink.bytes)
    }

    /// The operator's policy for this scheme and URL.
    private func check(_ reference: SourceReference, policy: SourcePolicy) throws(SourceError) {
        guard policy.allowedPluginSchemes.contains(entry.scheme) else {
            throw SourceError(
                .refused, source: reference.description,
                "the '\(entry.scheme):' scheme comes from plugin module \(entry.module); allow it with --allow-plugin-scheme \(entry.scheme)")
        }
        guard !policy.allowedSourcePrefixes.isEmpty else { return }
        if let problem = PluginSourcePrefix.ambiguity(in: reference.raw) {
            throw SourceError(
                .refused, source: reference.description,
                "has \(problem), which \(entry.subject) could resolve outside the allowed source prefixes; write the URL without it")
        }
        let matches = policy.allowedSourcePrefixes.contains { prefix in
            PluginSourcePrefix.matches(reference.raw, prefix: prefix)
        }
        guard matches else {
            throw SourceError(
                .refused, source: reference.description,
                "is not under an allowed source prefix (\(policy.allowedSourcePrefixes.joined(separator: ", "))); add one with --allow-source")
        }
    }
}

/// `--allow-source` for a plugin's scheme: the URL starts with the prefix (scheme compared
/// case-insensitively), at a `/` boundary. Plugin URLs have no grammar Darkroom can normalise,
/// so the comparison is on the text — and a URL with anything a provider might resolve to
/// somewhere else (`..` and `.` segments, escaped dots and separators, backslashes, NUL) is
/// refused outright while a list is in force.
enum PluginSourcePrefix {
    /// What in `url` could lead a provider outside a prefix it matches, or nil.
    static func ambiguity(in url: String) -> String? {
        let lower = url.lowercased()
        for escape in ["%2e", "%2f", "%5c", "%00"] where lower.contains(escape) {
            return "an escaped '\(escape)'"
        }
        if url.contains("\\") { return "a backslash" }
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "a control character" }
        let path = url.drop { $0 != ":" }.dropFirst()
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            return "a '.' or '..' segment"
        }
        return nil
    }

    static func matches(_ url: String, prefix: String) -> Bool {
        guard let urlColon = url.firstIndex(of: ":"), let prefixColon = prefix.firstIndex(of: ":") else { return false }
        guard url[..<urlColon].lowercased() == prefix[..<prefixColon].lowercased() else { return false }
        let rest = url[urlColon...]
        let prefixRest = prefix[prefixColon...]
        guard rest.hasPrefix(prefixRest) else { return false }
        return prefixRest.hasSuffix("/") || rest.count == prefixRest.count || rest.dropFirst(prefixRest.count).first == "/"
    }
}
