import CCurl

/// Turns HTTP statuses and libcurl results into `SourceError`s whose code says whether a retry can
/// help and whose message says what happened and what to do.
///
/// Messages are predicates for `"<source>: <message>"`. For a redirect hop they start with
/// "redirects to <url>, which", so the failing URL is always named.
enum HTTPFailure {
    /// The error for a final status that is neither 2xx nor a followed redirect, or nil for 2xx.
    static func status(_ status: Int, subject: String) -> (SourceError.Code, String)? {
        let answered = "\(subject)answered \(status)\(reasonPhrase(status).map { " " + $0 } ?? "")"
        switch status {
        case 200..<300:
            return nil
        case 404, 410:
            return (.notFound, "\(answered); the image is not there")
        case 401, 403:
            return (.forbidden, "\(answered); the server does not let Darkroom read it")
        case 408:
            return (.httpServerError, "\(answered); the server gave up waiting, try again later")
        case 429:
            return (.rateLimited, "\(answered); the server is limiting requests, try again later")
        case 300..<400:
            return (.httpClientError, "\(answered) without a Location to follow")
        case 400..<500:
            return (.httpClientError, "\(answered); the request was rejected, check the URL")
        case 500..<600:
            return (.httpServerError, "\(answered); the server failed, try again later")
        default:
            return (.httpServerError, "\(subject)answered with the unexpected status \(status)")
        }
    }

    /// The error for a libcurl failure that the transfer state does not explain more precisely.
    static func curl(_ code: CURLcode, detail: String, subject: String) -> (SourceError.Code, String) {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return (.unresolved, "\(subject)could not be resolved: \(detail)")
        case CURLE_COULDNT_CONNECT:
            return (.connection, "\(subject)could not be connected to: \(detail)")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            return (.connection, "\(subject)failed the TLS handshake: \(detail)")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return (.refused, "\(subject)uses a protocol other than http or https")
        case CURLE_URL_MALFORMAT:
            return (.invalid, "\(subject)is not a URL libcurl accepts: \(detail)")
        case CURLE_BAD_CONTENT_ENCODING:
            return (.connection, "\(subject)sent a compressed body that could not be decompressed: \(detail)")
        default:
            // Resets, empty replies, cut-off bodies, HTTP/2 stream errors: the network's fault.
            return (.connection, "\(subject)failed: \(detail)")
        }
    }

    /// "50 MB", "1.5 MB", "900 KB", "12 bytes".
    static func size(_ bytes: Int) -> String {
        let mb = 1 << 20
        let kb = 1 << 10
        if bytes >= mb {
            return bytes % mb == 0 ? "\(bytes / mb) MB" : "\(Double(bytes * 10 / mb) / 10) MB"
        }
        if bytes >= kb {
            return bytes % kb == 0 ? "\(bytes / kb) KB" : "\(Double(bytes * 10 / kb) / 10) KB"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }

    /// "5 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    private static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return nil
        }
    }
}
