import CCurl
import DarkroomSources

extension S3CurlTransfer {
    /// Sets every option of one request on the handle; false when libcurl refuses one.
    func configure(_ request: S3HTTPRequest, limits: S3TransferLimits, caFile: String?) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
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
        let base = CurlBaseOptions(
            userAgent: limits.userAgent, connectTimeout: limits.connectTimeout,
            lowSpeedBytesPerSecond: limits.lowSpeedBytesPerSecond, lowSpeedSeconds: limits.lowSpeedSeconds, caFile: caFile)
        // The shared settings include no redirects followed and TLS always verified (a private
        // CA is added with `caFile`).
        guard base.apply(to: handle, errorBuffer: errorBuffer) else { return false }
        var results: [CURLcode] = [
            // The path is sent as built: libcurl must not squash `.`/`..` segments.
            darkroom_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1),
            darkroom_curl_setopt_str(handle, CURLOPT_URL, request.url),
            darkroom_curl_setopt_ptr(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)),
            darkroom_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, CurlBaseOptions.milliseconds(limits.totalTimeout)),
            darkroom_curl_setopt_writefn(handle, s3CurlWrite),
            darkroom_curl_setopt_ptr(handle, CURLOPT_WRITEDATA, me),
            darkroom_curl_setopt_headerfn(handle, s3CurlHeader),
            darkroom_curl_setopt_ptr(handle, CURLOPT_HEADERDATA, me),
            darkroom_curl_setopt_xferinfofn(handle, s3CurlProgress),
            darkroom_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, me),
        ]
        switch request.method {
        case "GET": results.append(darkroom_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD": results.append(darkroom_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        default: results.append(darkroom_curl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, request.method))
        }
        return results.allSatisfy { $0 == CURLE_OK }
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
