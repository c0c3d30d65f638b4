import CCurl
import DarkroomSystem

/// One S3 request through one libcurl easy handle, blocking, on a `BlockingWorkPool` thread.
///
/// Not `Sendable`: made, used and dropped on one pool thread; libcurl calls the callbacks on
/// that thread from inside `curl_easy_perform`.
final class S3CurlTransfer {
    let handle: UnsafeMutableRawPointer
    let errorBuffer: UnsafeMutablePointer<CChar>
    private let cancellation: S3Cancellation
    private let maxBytes: Int
    /// The request's header lines, freed with the handle.
    var headerList: UnsafeMutablePointer<curl_slist>?

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

    // MARK: what the callbacks (S3CurlCallbacks) report, on this transfer's thread

    func receive(_ data: UnsafeRawBufferPointer) -> Bool {
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
    func header(_ line: UnsafeRawBufferPointer) {
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

    var isCancelled: Bool { cancellation.isCancelled }
}

extension String {
    /// The line without its CR LF (and trailing spaces).
    fileprivate func trimmingCRLF() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\r\n" || last == "\n" || last == "\r" || last == " " { text = text.dropLast() }
        return String(text)
    }
}
