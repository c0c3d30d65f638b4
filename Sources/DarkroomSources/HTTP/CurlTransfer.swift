import CCurl
import DarkroomSystem

/// One libcurl easy handle and the state its callbacks share, for the hops of one fetch.
///
/// Not `Sendable`: it is made, used and dropped on one `BlockingWorkPool` thread, and libcurl
/// calls the callbacks on that same thread from inside `curl_easy_perform` (a handle kept by
/// `HTTPPostConnections` moves between requests, one at a time).
final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    /// Where libcurl writes its detailed message for a failed transfer.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The cancellation of the request using the handle now (a kept handle serves many).
    var cancellation: TransferCancellation

    // MARK: state the callbacks read and write (per hop)
    private let maxBytes: Int
    /// The 2xx body received so far.
    private(set) var body: [UInt8] = []
    /// The body passed `maxBytes` and the transfer was stopped.
    private(set) var exceededLimit = false
    /// Bytes of non-2xx bodies (error pages, redirect notes), read and dropped.
    private var discardedBytes = 0
    /// The rule the connection's resolved address must pass.
    private var addressPolicy = AddressPolicy.publicOnly
    /// `Content-Length` of the latest response head, or -1 (kept here because libcurl does not
    /// report it when it stops a transfer for being over `CURLOPT_MAXFILESIZE_LARGE`).
    private var announcedLength: Int64 = -1
    /// Addresses the guard refused during this hop.
    private(set) var refusals: [(IPAddress, IPAddressClassification)] = []
    private var lastAddressPolicy: AddressPolicy?
    /// The request headers set by `usePost`, freed with the handle.
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// Largest error or redirect body read before the connection is dropped instead.
    private static let discardLimit = 64 << 10

    /// Creates the handle with every setting that is the same for all hops. Returns nil when
    /// libcurl cannot be initialised or refuses a setting (a libcurl older than 7.85).
    init?(policy: SourcePolicy, cancellation: TransferCancellation) {
        guard CurlRuntime.isInitialized, let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.cancellation = cancellation
        self.maxBytes = max(0, policy.maxBytes)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        guard configure(policy) else { return nil }
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    private func configure(_ policy: SourcePolicy) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let base = CurlBaseOptions(
            userAgent: policy.userAgent, connectTimeout: policy.connectTimeout,
            lowSpeedBytesPerSecond: policy.lowSpeedBytesPerSecond, lowSpeedSeconds: policy.lowSpeedSeconds,
            caFile: policy.caCertificatesPath)
        guard base.apply(to: handle, errorBuffer: errorBuffer) else { return false }
        let results: [CURLcode] = [
            // "" offers every encoding this libcurl can decode (gzip, deflate, br, zstd).
            darkroom_curl_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, ""),
            darkroom_curl_setopt_long(handle, CURLOPT_HTTPGET, 1),
            darkroom_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes)),
            darkroom_curl_setopt_writefn(handle, curlWrite),
            darkroom_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, me),
            darkroom_curl_setopt_headerfn(handle, curlHeader),
            darkroom_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, me),
            darkroom_curl_setopt_opensocketfn(handle, curlOpenSocket),
            darkroom_curl_setopt_ptr(handle, CURLOPT_OPENSOCKETDATA, me),
            darkroom_curl_setopt_xferinfofn(handle, curlProgress),
            darkroom_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, me),
        ]
        return results.allSatisfy { $0 == CURLE_OK }
    }

    /// Makes every later hop a POST of `body` (copied by libcurl) with `headers` (`Name: value`
    /// lines). `Expect:` is sent empty so libcurl never waits for a `100 Continue`.
    func usePost(body: [UInt8], headers: [String]) -> Bool {
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in headers + ["Expect:"] {
            guard let next = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                return false
            }
            list = next
        }
        // A kept handle had the previous request's list: freed once libcurl holds the new one.
        let previous = headerList
        defer { if let previous { curl_slist_free_all(previous) } }
        headerList = list
        let results: [CURLcode] = [
            darkroom_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
            // COPYPOSTFIELDS copies `size` bytes; an empty body still needs a valid pointer.
            (body.isEmpty ? [0] : body).withUnsafeBytes { bytes in
                darkroom_curl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            },
            darkroom_curl_setopt_ptr(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)),
        ]
        return results.allSatisfy { $0 == CURLE_OK }
    }

    /// Keeps at most one connection open after a request, reused by the next request to the
    /// same origin unless it has been idle more than `maxAgeSeconds`.
    func keepOneConnection(maxAgeSeconds: Int) -> Bool {
        let results: [CURLcode] = [
            darkroom_curl_setopt_long(handle, CURLOPT_MAXCONNECTS, 1),
            darkroom_curl_setopt_long(handle, CURLOPT_MAXAGE_CONN, max(1, maxAgeSeconds)),
        ]
        return results.allSatisfy { $0 == CURLE_OK }
    }

    static func milliseconds(_ seconds: Double) -> Int { CurlBaseOptions.milliseconds(seconds) }

    // MARK: one hop

    /// What a single request returned.
    struct HopResult {
        var code: CURLcode
        var status: Int
        var redirectLocation: String?
        var contentType: String?
        /// The `Content-Length` the server announced, or -1.
        var contentLength: Int64 = -1
        /// A TCP connection was established (false: DNS or connect failed or was refused).
        var connected: Bool
        var curlMessage: String
    }

    /// Requests `url` once, connecting only to addresses `addressPolicy` allows.
    func perform(_ url: SourceURL, addressPolicy: AddressPolicy, timeoutMilliseconds: Int) -> HopResult {
        body = []
        exceededLimit = false
        discardedBytes = 0
        announcedLength = -1
        refusals = []
        self.addressPolicy = addressPolicy
        errorBuffer[0] = 0
        // A connection kept from the previous hop was checked under that hop's rule; when the rule
        // differs, insist on a new connection so the address is checked under this one.
        let fresh: Int = lastAddressPolicy == nil || lastAddressPolicy == addressPolicy ? 0 : 1
        lastAddressPolicy = addressPolicy
        _ = darkroom_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, fresh)
        _ = darkroom_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, timeoutMilliseconds))
        guard darkroom_curl_setopt_str(handle, CURLOPT_URL, url.serialized) == CURLE_OK else {
            return HopResult(code: CURLE_URL_MALFORMAT, status: 0, connected: false, curlMessage: "libcurl refused the URL")
        }
        let code = curl_easy_perform(handle)

        var status = 0
        var redirect: UnsafePointer<CChar>?
        var contentType: UnsafePointer<CChar>?
        var connectTime: curl_off_t = 0
        _ = darkroom_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        _ = darkroom_curl_getinfo_str(handle, CURLINFO_REDIRECT_URL, &redirect)
        _ = darkroom_curl_getinfo_str(handle, CURLINFO_CONTENT_TYPE, &contentType)
        _ = darkroom_curl_getinfo_off_t(handle, CURLINFO_CONNECT_TIME_T, &connectTime)
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return HopResult(
            code: code, status: status,
            redirectLocation: redirect.map { String(cString: $0) },
            contentType: contentType.map { String(cString: $0) },
            contentLength: announcedLength,
            connected: connectTime > 0 || status > 0, curlMessage: detail)
    }

    /// The body of the last hop, handed over without a copy.
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    // MARK: callbacks (called by libcurl on this transfer's thread)

    fileprivate func receive(_ data: UnsafeRawBufferPointer) -> Bool {
        var status = 0
        _ = darkroom_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard (200..<300).contains(status) else {
            discardedBytes += data.count
            return discardedBytes <= Self.discardLimit
        }
        guard data.count <= maxBytes - body.count else {
            exceededLimit = true
            return false
        }
        if body.isEmpty, announcedLength > 0 {
            // A compressed body's length is a lower bound of what arrives; still a good start.
            body.reserveCapacity(Int(min(announcedLength, Int64(maxBytes))))
        }
        body.append(contentsOf: data)
        return true
    }

    /// One header line: a status line starts a new response (after a 100 Continue or on the next
    /// hop); `Content-Length` is remembered.
    fileprivate func header(_ line: UnsafeRawBufferPointer) {
        let prefix = "content-length:".utf8
        if line.starts(with: "HTTP/".utf8) {
            announcedLength = -1
        } else if line.count > prefix.count,
            zip(line.prefix(prefix.count), prefix).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        {
            let digits = line.dropFirst(prefix.count).filter { $0 >= 0x30 && $0 <= 0x39 }
            if !digits.isEmpty, digits.count <= 18 {
                announcedLength = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
            }
        }
    }

    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var raw = [UInt8](repeating: 0, count: 16)
        let length = Int(darkroom_curl_sockaddr_ip(address, &raw))
        guard let ip = IPAddress(bytes: raw.prefix(length)) else { return CURL_SOCKET_BAD }
        switch addressPolicy.evaluate(ip) {
        case .allowed:
            return darkroom_curl_open_socket(address)
        case .refused(let classification):
            refusals.append((ip, classification))
            return CURL_SOCKET_BAD
        }
    }
}

// MARK: C entry points

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> CurlTransfer? {
    pointer.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

/// Returning anything but `size * count` makes libcurl stop with CURLE_WRITE_ERROR.
private func curlWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, let transfer = transfer(context) else { return 0 }
    guard total > 0, let data else { return total }
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: total)) ? total : 0
}

private func curlHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, let transfer = transfer(context) else { return 0 }
    if total > 0, let data { transfer.header(UnsafeRawBufferPointer(start: data, count: total)) }
    return total
}

/// The SSRF guard: libcurl has resolved the host and asks for a socket for one address.
private func curlOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
    _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let transfer = transfer(context), let address else { return CURL_SOCKET_BAD }
    return transfer.openSocket(address)
}

/// Called at least once a second while a transfer runs; non-zero aborts it.
private func curlProgress(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
    guard let transfer = transfer(context) else { return 1 }
    return transfer.cancellation.isCancelled ? 1 : 0
}
