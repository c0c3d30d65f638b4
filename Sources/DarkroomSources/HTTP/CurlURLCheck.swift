import CCurl

/// A second opinion from libcurl's own URL parser.
///
/// `SourceURL` decides where the host ends, and libcurl is handed `SourceURL.serialized`, which is
/// written so no parser can read it two ways. This check makes that a fact rather than a hope:
/// before each request, libcurl parses the very string it is about to fetch, and the request is
/// refused unless libcurl's scheme, host and port equal the ones the allow-list judged.
enum CurlURLCheck {
    /// nil when libcurl agrees with `url`; otherwise what it read instead.
    static func disagreement(with url: SourceURL) -> String? {
        guard let handle = curl_url() else { return "libcurl could not parse URLs" }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url.serialized, 0) == CURLUE_OK else {
            return "libcurl could not parse \(url.serialized)"
        }
        let scheme = part(handle, CURLUPART_SCHEME, flags: 0)
        let host = part(handle, CURLUPART_HOST, flags: 0)
        let port = part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT))
        let expectedHost = url.hostKind == .ipv6 ? "[\(url.host)]" : url.host
        if scheme?.lowercased() == url.scheme, host?.lowercased() == expectedHost, port == String(url.port) {
            return nil
        }
        return "libcurl reads it as scheme \(scheme ?? "?"), host \(host ?? "?"), port \(port ?? "?")"
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart, flags: UInt32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}
