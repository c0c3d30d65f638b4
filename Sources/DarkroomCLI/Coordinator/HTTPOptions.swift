import ArgumentParser
import DarkroomClient
import DarkroomCoordinatorHTTP
import Foundation

/// `--http HOST:PORT`, `--http-token-file FILE`, `--insecure-http`, `--session-ttl`, and the
/// roots the dashboard's output preview reads (`--output-root`, `--cache-root`, as `darkroom api`'s)
/// of `darkroom coordinator`.
///
/// The token comes from `--http-token-file`, else `DARKROOM_HTTP_TOKEN`, else the file named by
/// `DARKROOM_HTTP_TOKEN_FILE`; never from a flag's value, which everyone sees in `ps`.
struct HTTPOptions: ParsableArguments {
    @Option(
        name: .customLong("http"),
        help: ArgumentHelp(
            "Serve /metrics, /healthz, /status, /events and the dashboard on this address (127.0.0.1:9464; [::1]:9464).",
            valueName: "host:port"))
    var address: String?

    @Option(
        name: .customLong("http-token-file"),
        help: ArgumentHelp(
            "Read the HTTP bearer token from this file. Default: $DARKROOM_HTTP_TOKEN, else the file $DARKROOM_HTTP_TOKEN_FILE.",
            valueName: "file"))
    var tokenFile: String?

    @Flag(name: .customLong("insecure-http"), help: "Allow --http on a non-loopback address without a token.")
    var insecure = false

    @Option(
        name: .customLong("session-ttl"),
        help: ArgumentHelp("How long a dashboard login (/?token=…) lasts, in seconds (60…2592000).", valueName: "seconds"))
    var sessionTTL: Int = 12 * 3600

    @Option(
        name: .customLong("output-root"),
        help: ArgumentHelp(
            "The volume job outputs are written under, read only for the dashboard's preview (as `darkroom api --output-root`).",
            valueName: "dir"))
    var outputRoot: String?

    @Option(
        name: .customLong("cache-root"),
        help: ArgumentHelp("The shared cache directory, for previews of results kept only in the cache (default: $DARKROOM_CACHE_DIR).", valueName: "dir"))
    var cacheRoot: String?

    /// The server's settings and the token's text (for the dashboard's address), or nil without `--http`.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure)
        -> (configuration: CoordinatorHTTPConfiguration, token: String?)?
    {
        guard let address else {
            if tokenFile != nil || insecure || outputRoot != nil || cacheRoot != nil {
                throw UsageFailure("--http-token-file, --insecure-http, --output-root and --cache-root need --http HOST:PORT")
            }
            return nil
        }
        do {
            let (host, port) = try CoordinatorHTTPConfiguration.address(address)
            let text = try token(environment: environment)?.trimmingCharacters(in: .whitespacesAndNewlines)
            var configuration = CoordinatorHTTPConfiguration(
                host: host, port: port, token: try text.map(AccessToken.init), allowInsecure: insecure)
            configuration.sessionLifetime = .seconds(sessionTTL)
            let directory = FileManager.default.currentDirectoryPath
            configuration.outputRoot = outputRoot.map { Self.root($0, from: directory) }
            configuration.cacheRoot = (cacheRoot ?? environment["DARKROOM_CACHE_DIR"]).flatMap { $0.isEmpty ? nil : Self.root($0, from: directory) }
            try configuration.validate()
            return (configuration, text)
        } catch let error as CoordinatorHTTPError {
            throw UsageFailure(error.message)
        } catch let error as UsageFailure {
            throw error
        } catch {
            throw UsageFailure("\(error)")
        }
    }

    /// `path` absolute and without `.` or `..` (the output reader refuses those components).
    private static func root(_ path: String, from directory: String) -> String {
        URL(fileURLWithPath: PathResolver.absolute(path, from: directory)).standardizedFileURL.path
    }

    private func token(environment: [String: String]) throws -> String? {
        if let tokenFile { return try Self.read(tokenFile, what: "--http-token-file") }
        if let token = environment["DARKROOM_HTTP_TOKEN"], !token.isEmpty { return token }
        if let file = environment["DARKROOM_HTTP_TOKEN_FILE"], !file.isEmpty { return try Self.read(file, what: "DARKROOM_HTTP_TOKEN_FILE") }
        return nil
    }

    private static func read(_ path: String, what: String) throws(UsageFailure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageFailure("\(what) \(path): cannot read the file; check the path and its permissions")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
