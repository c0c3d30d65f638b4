import CCurl

extension S3CurlTransfer {
    /// Sets every option of one request on the handle; false when libcurl refuses one.
    func configure(_ request: S3HTTPRequest, limits: S3TransferLimits, caFile: String?) -> Bool {
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
