import CCurl

/// The libcurl settings every Darkroom request shares, whatever it fetches or stores: no signals,
/// http and https only, no redirect followed by libcurl, no proxy from the environment, TLS
/// always verified, the connect timeout and the low-speed limit. `CurlTransfer` (sources and
/// webhooks) and the S3 transport both start from it, so a hardening made here reaches both.
public struct CurlBaseOptions: Sendable, Hashable {
    public var userAgent: String
    public var connectTimeout: Double
    /// Below this many bytes a second for `lowSpeedSeconds`, the transfer is stopped; 0 turns the
    /// rule off.
    public var lowSpeedBytesPerSecond: Int
    public var lowSpeedSeconds: Double
    /// A PEM bundle of the CAs to trust instead of the system's, or nil.
    public var caFile: String?

    public init(userAgent: String, connectTimeout: Double, lowSpeedBytesPerSecond: Int, lowSpeedSeconds: Double, caFile: String?) {
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.lowSpeedBytesPerSecond = lowSpeedBytesPerSecond
        self.lowSpeedSeconds = lowSpeedSeconds
        self.caFile = caFile
    }

    /// Sets these options on the easy handle `handle`, with libcurl's message for a failed transfer
    /// written to `errorBuffer` (`CURL_ERROR_SIZE` + 1 bytes); false when libcurl refuses one.
    public func apply(to handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>) -> Bool {
        let lowSpeed = max(0, lowSpeedBytesPerSecond)
        var results: [CURLcode] = [
            // Threads and signals: libcurl must not use SIGALRM for DNS timeouts in a threaded process.
            darkroom_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            // Only http and https, for the request and (belt and braces) any redirect.
            darkroom_curl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            darkroom_curl_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            // libcurl follows no redirect: a source's are followed one checked hop at a time by
            // HTTPProvider, and a signed S3 request never follows one.
            darkroom_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            // No proxy from http_proxy/ALL_PROXY: through a proxy the resolved-address check would
            // see the proxy, and the proxy would reach whatever the URL names.
            darkroom_curl_setopt_str(handle, CURLOPT_PROXY, ""),
            darkroom_curl_setopt_str(handle, CURLOPT_USERAGENT, userAgent),
            darkroom_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout)),
            darkroom_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, lowSpeed),
            darkroom_curl_setopt_long(
                handle, CURLOPT_LOW_SPEED_TIME, lowSpeed == 0 ? 0 : max(1, Int(lowSpeedSeconds.rounded(.up)))),
            darkroom_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            // Progress callbacks on: they are where a cancelled request stops its transfer.
            darkroom_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            // TLS verification is libcurl's default; stated here so no later change can drop it.
            darkroom_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            darkroom_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
        ]
        if let caFile { results.append(darkroom_curl_setopt_str(handle, CURLOPT_CAINFO, caFile)) }
        return results.allSatisfy { $0 == CURLE_OK }
    }

    /// `seconds` as libcurl's whole milliseconds, at least 1 (0 would mean "no limit") and at most
    /// `Int32.max`.
    public static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return max(1, Int(min(seconds * 1000, Double(Int32.max)).rounded(.up)))
    }
}
