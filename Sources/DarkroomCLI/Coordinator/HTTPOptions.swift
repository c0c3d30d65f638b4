import ArgumentParser
import DarkroomCoordinatorHTTP
import Foundation

/// `--http HOST:PORT`, `--http-token-file FILE` and `--insecure-http` of `darkroom coordinator`.
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

    /// The server's settings and the token's text (for the dashboard's address), or nil without `--http`.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure)
        -> (configuration: CoordinatorHTTPConfiguration, token: String?)?
    {
        guard let address else {
            if tokenFile != nil || insecure { throw UsageFailure("--http-token-file and --insecure-http need --http HOST:PORT") }
            return nil
        }
        do {
            let (host, port) = try CoordinatorHTTPConfiguration.address(address)
            let text = try token(environment: environment)?.trimmingCharacters(in: .whitespacesAndNewlines)
            let configuration = CoordinatorHTTPConfiguration(
                host: host, port: port, token: try text.map(AccessToken.init), allowInsecure: insecure)
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
