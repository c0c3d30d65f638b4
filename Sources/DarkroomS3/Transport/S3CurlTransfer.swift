import CCurl
import DarkroomSystem

/// One S3 request through one libcurl easy handle, blocking, on a `BlockingWorkPool` thread.
///
/// Not `Sendable`: made, used and dropped on one pool thread; libcurl calls the callbacks on
/// that thread from inside `curl_easy_perform`.
final class S3CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let cancellation: S3Cancellation
    private let maxBytes: Int
    private var headerList: UnsafeMutablePointer<curl_slist>?

    // MARK: state the callbacks write
    private var status = 0
    private var body: [UInt8] = []
    private var headers: [String: String] = [:]
    private(set) var exceededLimit = false
    private var announcedLength: Int64 = -1

    /// An error body is kept up to this size (its `<Code>` is near the start); a longer one is
    /// dropped with the connection.
    static let errorBodyLimit = 64 << 10

    /// libcurl's process-wide initialisation, once (a `static let` runs under Swift's once-lock).
    private static let initialized: Bool = darkroom_curl_global_init_all() == CURLE_OK

    init?(maxBytes: Int, cancellation: S3Cancellation) {
        guard Self.initialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.cancellation = cancellation
        self.maxBytes = max(0, maxBytes)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Sends `request` once and returns the response, or how the transfer failed.
    func perform(
        _ request: S3HTTPRequest, limits: S3TransferLimits, caFile: String?
    ) -> Result<S3HTTPResponse, S3TransportFailure> {
        guard configure(request, limits: limits, caFile: caFile) else {
            return .failure(.setup(String(cString: errorBuffer)))
        }
        // The body is handed to libcurl by pointer (CURLOPT_POSTFIELDS, no copy) and must stay
        // valid until the transfer ends: the transfer runs inside this closure.
        let code = request.body.withUnsafeBytes { bytes -> CURLcode in
            if request.method != "GET" && request.method != "HEAD" && request.method != "DELETE" {
                let pointer = UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))
                _ = darkroom_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                _ = darkroom_curl_setopt_ptr(handle, CURLOPT_POSTFIELDS, pointer)
            }
            return curl_easy_perform(handle)
        }
        var connectTime: curl_off_t = 0
        _ = darkroom_curl_getinfo_off_t(handle, CURLINFO_CONNECT_TIME_T, &connectTime)
        let connected = connectTime > 0 || status > 0
        if code == CURLE_OK || (status >= 300 && code == CURLE_WRITE_ERROR) {
            // A non-2xx answer cut short on purpose (its body over 64 KiB) is still an answer.
            return .success(S3HTTPResponse(status: status, headers: headers, body: body))
        }
        if code == CURLE_ABORTED_BY_CALLBACK && cancellation.isCancelled { return .failure(.cancelled) }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED { return .failure(.tooLarge(announced: announcedLength)) }
        if code == CURLE_OPERATION_TIMEDOUT {
            var micros: curl_off_t = 0
            _ = darkroom_curl_getinfo_off_t(handle, CURLINFO_TOTAL_TIME_T, &micros)
            let total = Double(micros) / 1_000_000 >= limits.totalTimeout - 0.05
            return .failure(.timeout(connected: connected, total: total))
        }
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return .failure(.connection(detail))
    }

    private func configure(_ request: S3HTTPRequest, limits: S3TransferLimits, caFile: String?) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let lowSpeed = max(0, limits.lowSpeedBytesPerSecond)
        var list: UnsafeMutablePointer<curl_slist>? = nil
        // `Expect:` empty: no 100-continue round trip before a PUT body. `Content-Type:` empty
        // when none is given, or libcurl would add its form type to a body sent as POSTFIELDS.
        var lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) { lines.append("Content-Type:") }
        for line in lines {
            guard let next = curl_slist_append(list, line) else { return false }
            list = next
        }
        headerList = list
        var results: [CURLcode] = [
            darkroom_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            darkroom_curl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            // A signed request never follows a redirect: a 3xx is returned and refused.
            darkroom_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            // The path is sent as built: libcurl must not squash `.`/`..` segments.
            darkroom_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1),
            // No proxy from http_proxy/ALL_PROXY: the endpoint is reached as configured.
            darkroom_curl_setopt_str(handle, CURLOPT_PROXY, ""),
            darkroom_curl_setopt_str(handle, CURLOPT_USERAGENT, limits.userAgent),
            darkroom_curl_setopt_str(handle, CURLOPT_URL, request.url),
            darkroom_curl_setopt_ptr(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)),
            darkroom_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout)),
            darkroom_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(limits.totalTimeout)),
            darkroom_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, lowSpeed),
            darkroom_curl_setopt_long(
                handle, CURLOPT_LOW_SPEED_TIME, lowSpeed == 0 ? 0 : max(1, Int(limits.lowSpeedSeconds.rounded(.up)))),
            darkroom_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            darkroom_curl_setopt_writefn(handle, s3CurlWrite),
            darkroom_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, me),
            darkroom_curl_setopt_headerfn(handle, s3CurlHeader),
            darkroom_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, me),
            darkroom_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            darkroom_curl_setopt_xferinfofn(handle, s3CurlProgress),
            darkroom_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, me),
            // TLS verification is never turned off; a private CA is added with `caFile`.
            darkroom_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            darkroom_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
        ]
        switch request.method {
        case "GET": results.append(darkroom_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD": results.append(darkroom_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        default: results.append(darkroom_curl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        if let caFile { results.append(darkroom_curl_setopt_str(handle, CURLOPT_CAINFO, caFile)) }
        return results.allSatisfy { $0 == CURLE_OK }
    }

    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return max(1, Int(min(seconds * 1000, Double(Int32.max)).rounded(.up)))
    }

    // MARK: callbacks (libcurl calls them on this transfer's thread)

    fileprivate func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        let limit = (200..<300).contains(status) ? maxBytes : Self.errorBodyLimit
        guard data.count <= limit - body.count else {
            exceededLimit = (200..<300).contains(status)
            return false
        }
        if body.isEmpty, announcedLength > 0 { body.reserveCapacity(Int(min(announcedLength, Int64(limit)))) }
        body.append(contentsOf: data)
        return true
    }

    /// A status line starts a new response (after a `100 Continue`); other lines are headers.
    fileprivate func header(_ line: UnsafeRawBufferPointer) {
        let text = String(decoding: line, as: UTF8.self).trimmingCRLF()
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
            announcedLength = -1
            body = []
            return
        }
        guard let colon = text.firstIndex(of: ":") else { return }
        let name = text[..<colon].lowercased()
        let value = String(text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
        headers[name] = value
        if name == "content-length", let length = Int64(value) { announcedLength = length }
    }

    fileprivate var isCancelled: Bool { cancellation.isCancelled }
}

extension String {
    fileprivate func trimmingCRLF() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\r\n" || last == "\n" || last == "\r" || last == " " { text = text.dropLast() }
        return String(text)
    }
}

// MARK: C entry points

private func s3Transfer(_ pointer: UnsafeMutableRawPointer?) -> S3CurlTransfer? {
    pointer.map { Unmanaged<S3CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

/// Returning anything but `size * count` makes libcurl stop with CURLE_WRITE_ERROR.
private func s3CurlWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, let transfer = s3Transfer(context) else { return 0 }
    guard total > 0, let data else { return total }
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private func s3CurlHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, let transfer = s3Transfer(context) else { return 0 }
    if total > 0, let data { transfer.header(UnsafeRawBufferPointer(start: data, count: total)) }
    return total
}

/// Called at least once a second while a transfer runs; non-zero aborts it.
private func s3CurlProgress(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
    guard let transfer = s3Transfer(context) else { return 1 }
    return transfer.isCancelled ? 1 : 0
}
