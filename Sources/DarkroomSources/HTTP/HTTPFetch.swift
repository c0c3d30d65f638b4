import CCurl
import DarkroomSystem

/// One HTTP fetch, blocking, on a network-pool thread: the redirect loop and the mapping of what
/// happened to a `SourceError`.
struct HTTPFetch {
    let reference: SourceReference
    let policy: SourcePolicy
    let cancellation: TransferCancellation

    func run() -> Result<FetchedSource, SourceError> {
        do {
            return .success(try fetch())
        } catch {
            return .failure(error)
        }
    }

    private func failure(_ code: SourceError.Code, _ message: String) -> SourceError {
        SourceError(code, source: reference.description, message)
    }

    private func fetch() throws(SourceError) -> FetchedSource {
        let sourceGuard: SourceGuard
        let first: SourceURL
        var rule: AddressPolicy
        do {
            sourceGuard = try SourceGuard(policy)
            (first, rule) = try sourceGuard.authorize(reference.raw)
        } catch {
            throw error.sourceError(for: reference.description)
        }
        guard let transfer = CurlTransfer(policy: policy, cancellation: cancellation) else {
            throw failure(.connection, "could not start a libcurl transfer (\(CurlRuntime.version); 7.85 or newer is needed)")
        }

        let clock = ContinuousClock()
        let start = clock.now
        let totalMilliseconds = CurlTransfer.milliseconds(policy.totalTimeout)
        var url = first
        var redirects = 0
        while true {
            let subject = redirects == 0 ? "" : "redirects to \(url), which "
            let elapsed = Int((clock.now - start).wholeMilliseconds)
            if cancellation.isCancelled { throw cancelled() }
            guard elapsed < totalMilliseconds else { throw totalTimeout(subject) }
            if let disagreement = CurlURLCheck.disagreement(with: url) {
                throw failure(.refused, "\(subject)is read differently by libcurl (\(disagreement)); refused to be safe")
            }

            let hop = transfer.perform(url, addressPolicy: rule, timeoutMilliseconds: totalMilliseconds - elapsed)
            if hop.code != CURLE_OK {
                try explainFailure(
                    hop, transfer: transfer, url: url, subject: subject,
                    elapsed: Int((clock.now - start).wholeMilliseconds), total: totalMilliseconds)
            }
            if (300..<400).contains(hop.status), let location = hop.redirectLocation, !location.isEmpty {
                redirects += 1
                guard redirects <= policy.maxRedirects else {
                    throw failure(
                        .tooManyRedirects,
                        "\(subject)redirects to \(location): more than "
                            + "\(policy.maxRedirects) redirects, the limit (raise it with --max-redirects)")
                }
                do {
                    (url, rule) = try sourceGuard.authorize(location)
                } catch {
                    throw failure(error.kind == .invalid ? .invalid : .refused, "redirects to \(location), which \(error.message)")
                }
                continue
            }
            if let (code, message) = HTTPFailure.status(hop.status, subject: subject) {
                throw failure(code, message)
            }
            return FetchedSource(
                bytes: transfer.takeBody(), cacheKey: first.serialized,
                finalLocation: url.serialized, contentType: hop.contentType)
        }
    }

    /// Throws the error for a hop libcurl did not complete, unless the hop still has a status to
    /// act on (an error page or redirect whose body was cut short on purpose).
    private func explainFailure(
        _ hop: CurlTransfer.HopResult, transfer: CurlTransfer, url: SourceURL,
        subject: String, elapsed: Int, total: Int
    ) throws(SourceError) {
        if hop.code == CURLE_ABORTED_BY_CALLBACK, cancellation.isCancelled { throw cancelled() }
        // A redirect or error status arrived; its body is not the image, so a body that was cut
        // short (on purpose, for being long, or by the network) does not change the answer.
        if hop.status >= 300 { return }
        if transfer.exceededLimit || hop.code == CURLE_FILESIZE_EXCEEDED {
            let limit = HTTPFailure.size(policy.maxBytes)
            let size = hop.contentLength > Int64(policy.maxBytes) ? "is \(HTTPFailure.size(Int(hop.contentLength))), " : "is "
            throw failure(.tooLarge, "\(subject)\(size)over the \(limit) source limit (raise it with --max-source-mb)")
        }
        if let (address, classification) = transfer.refusals.first, !hop.connected {
            let more = transfer.refusals.count > 1 ? " (and \(transfer.refusals.count - 1) more of its addresses)" : ""
            let advice =
                classification.addressClass.isNeverASource
                ? "such addresses are never fetched"
                : "private, loopback and link-local addresses are not fetched unless allowed "
                    + "(--allow-source \(url.origin)/ or --allow-private-network)"
            throw failure(.refused, "\(subject)was refused at connect time: \(classification.explain(address))\(more); \(advice)")
        }
        if hop.code == CURLE_OPERATION_TIMEDOUT {
            if elapsed >= total - 20 {
                throw totalTimeout(subject)
            }
            if !hop.connected {
                throw failure(
                    .timeout,
                    "\(subject)timed out: no connection within \(HTTPFailure.seconds(policy.connectTimeout)) "
                        + "(raise it with --connect-timeout)")
            }
            throw failure(
                .timeout,
                "\(subject)timed out: it sent less than \(policy.lowSpeedBytesPerSecond) bytes/s "
                    + "for \(HTTPFailure.seconds(policy.lowSpeedSeconds))")
        }
        let (code, message) = HTTPFailure.curl(hop.code, detail: hop.curlMessage, subject: subject)
        throw failure(code, message)
    }

    private func totalTimeout(_ subject: String) -> SourceError {
        failure(
            .timeout,
            "\(subject)timed out: the fetch took longer than the \(HTTPFailure.seconds(policy.totalTimeout)) limit "
                + "(raise it with --fetch-timeout)")
    }

    private func cancelled() -> SourceError {
        failure(.timeout, "was cancelled before the transfer finished (the job was cancelled or the worker is stopping)")
    }
}
