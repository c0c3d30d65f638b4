import ArgumentParser
import DarkroomSources
import Foundation

/// The source-policy flags, shared by every command that fetches sources.
struct SourcePolicyOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-source"),
        help: ArgumentHelp(
            "Only fetch URLs starting with this prefix (repeatable), e.g. http://images.example.com/. A host named here may be on a private network.",
            valueName: "prefix"))
    var allowedSources: [String] = []

    @Option(
        name: .customLong("allow-plugin-scheme"),
        help: ArgumentHelp(
            "Allow sources of this scheme, provided by a plugin module (repeatable). Plugin schemes are refused until allowed; --allow-source still applies.",
            valueName: "name"))
    var allowedPluginSchemes: [String] = []

    @Flag(help: "Allow private, loopback and link-local addresses for every host (refused by default).")
    var allowPrivateNetwork = false

    @Option(
        name: .customLong("allow-file-root"),
        help: ArgumentHelp(
            "Directory queued file sources must be inside (repeatable). Paths typed on this command line need none.",
            valueName: "dir"))
    var fileRoots: [String] = []

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "PEM bundle of extra certificate authorities to trust for https sources (an in-cluster CA). Verification stays on.",
            valueName: "path"))
    var caFile: String?

    @Option(help: "Largest source in megabytes.")
    var maxSourceMB: Double = 50

    @Option(help: "Seconds for a whole download, redirects included.")
    var fetchTimeout: Double = 30

    @Option(help: "Seconds to connect.")
    var connectTimeout: Double = 5

    @Option(help: "Most redirects followed.")
    var maxRedirects: Int = 5

    /// The policy these flags describe. Sources a person typed (`typedByAPerson`) may be any
    /// file the process can read; queued sources only files under `--allow-file-root`.
    func policy(typedByAPerson: Bool) throws(UsageFailure) -> SourcePolicy {
        guard maxSourceMB > 0, maxSourceMB <= 4096 else { throw UsageFailure("--max-source-mb must be in (0, 4096]") }
        guard fetchTimeout > 0, connectTimeout > 0 else { throw UsageFailure("timeouts must be positive") }
        guard fetchTimeout <= 86_400, connectTimeout <= 86_400 else { throw UsageFailure("timeouts must be at most 86400 s (a day)") }
        guard (0...20).contains(maxRedirects) else { throw UsageFailure("--max-redirects must be 0…20") }
        let pluginSchemes = Set(allowedPluginSchemes.map { $0.lowercased() })
        for scheme in pluginSchemes where ["http", "https", "file", "data"].contains(scheme) {
            throw UsageFailure("--allow-plugin-scheme names a plugin's scheme; '\(scheme)' is built in")
        }
        for prefix in allowedSources {
            let lower = prefix.lowercased()
            let pluginPrefix = pluginSchemes.contains { lower.hasPrefix($0 + ":") }
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || pluginPrefix else {
                throw UsageFailure(
                    "--allow-source takes an http:// or https:// prefix, or one of a scheme allowed with --allow-plugin-scheme (got '\(prefix)')")
            }
        }
        if let caFile {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: caFile, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw UsageFailure("--ca-file '\(caFile)' is not a file; give the path of a PEM bundle of CA certificates")
            }
        }
        var policy = typedByAPerson ? SourcePolicy.interactive : SourcePolicy()
        policy.maxBytes = Int(maxSourceMB * 1_048_576)
        policy.totalTimeout = fetchTimeout
        policy.connectTimeout = connectTimeout
        policy.maxRedirects = maxRedirects
        policy.allowedSourcePrefixes = allowedSources
        policy.allowedPluginSchemes = pluginSchemes
        policy.allowPrivateNetworks = allowPrivateNetwork
        policy.caCertificatesPath = caFile
        if !typedByAPerson || !fileRoots.isEmpty {
            policy.fileRoots = fileRoots
        }
        return policy
    }
}
