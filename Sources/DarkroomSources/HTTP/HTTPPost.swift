import CCurl
import DarkroomSystem

/// One HTTP POST under the fetching policy's protections, for webhook deliveries.
///
/// The same guard as a source fetch: http/https only, no user information, and the connection
/// must pass `AddressPolicy` on the address libcurl actually connects to (no private, loopback
/// or link-local address unless `policy.allowPrivateNetworks`). Unlike a fetch it never follows
/// a redirect: a 3xx is the receiver's answer, reported as such. The response body is read up to
/// `policy.maxBytes` and dropped; only the status matters. Timeouts are `connectTimeout` and
/// `totalTimeout`.
///
/// With `connections`, the connection is kept after an answer and reused by the next POST to the
/// same origin under the same policy (`HTTPPostConnections` says why that keeps the guard).
public enum HTTPPost {
    /// What the receiver answered, or why nothing was answered.
    public struct Outcome: Sendable, Hashable {
        /// The HTTP status, or 0 when no response arrived.
        public var status: Int
        /// Why the request failed (no connection, a refused address, a timeout, a non-2xx status);
        /// nil for a 2xx answer.
        public var problem: String?

        /// Whether the receiver accepted the request (any 2xx).
        public var accepted: Bool { (200..<300).contains(status) }
    }

    /// POSTs `body` to `url` with `headers` (`Name: value` lines) on `pool`'s threads, on a kept
    /// connection of `connections` when one is open (nil: a new connection, closed after).
    public static func send(
        _ url: String, body: [UInt8], headers: [String], policy: SourcePolicy,
        connections: HTTPPostConnections? = nil, pool: BlockingWorkPool = HTTPProvider.sharedPool
    ) async -> Outcome {
        let cancellation = TransferCancellation()
        return await withTaskCancellationHandler {
            await pool.run {
                perform(url, body: body, headers: headers, policy: policy, connections: connections, cancellation: cancellation)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    private static func perform(
        _ text: String, body: [UInt8], headers: [String], policy: SourcePolicy, connections: HTTPPostConnections?,
        cancellation: TransferCancellation
    ) -> Outcome {
        let url: SourceURL
        let rule: AddressPolicy
        do {
            (url, rule) = try SourceGuard(policy).authorize(text)
        } catch {
            return Outcome(status: 0, problem: "\(text) \(error.message)")
        }
        if let disagreement = CurlURLCheck.disagreement(with: url) {
            return Outcome(status: 0, problem: "\(url) is read differently by libcurl (\(disagreement)); refused to be safe")
        }
        let key = HTTPPostConnections.Key(origin: "\(url.scheme)://\(url.host):\(url.port)", policy: policy)
        guard let transfer = connections?.take(key) ?? newTransfer(policy, keeping: connections),
            transfer.usePost(body: body, headers: headers)
        else {
            return Outcome(status: 0, problem: "could not start a libcurl transfer (\(CurlRuntime.version))")
        }
        transfer.cancellation = cancellation
        let hop = transfer.perform(url, addressPolicy: rule, timeoutMilliseconds: CurlTransfer.milliseconds(policy.totalTimeout))
        // Kept only after a complete answer: libcurl closes a connection it stopped mid-response.
        if let connections, hop.code == CURLE_OK, hop.status > 0 {
            _ = transfer.takeBody()
            connections.put(transfer, for: key)
        }
        // A status arrived: it is the answer, even when the body was cut at the size cap.
        if hop.status > 0 {
            if (200..<300).contains(hop.status) { return Outcome(status: hop.status, problem: nil) }
            let redirect = (300..<400).contains(hop.status) ? " (redirects are not followed)" : ""
            return Outcome(status: hop.status, problem: "the receiver answered HTTP \(hop.status)\(redirect)")
        }
        if let (address, classification) = transfer.refusals.first {
            return Outcome(
                status: 0,
                problem: "refused at connect time: \(classification.explain(address)); private, loopback and link-local "
                    + "addresses are not posted to unless the endpoint allows them (--allow-private-network)")
        }
        if hop.code == CURLE_OPERATION_TIMEDOUT {
            return Outcome(
                status: 0, problem: "timed out after \(HTTPFailure.seconds(policy.totalTimeout)) (connect limit \(HTTPFailure.seconds(policy.connectTimeout)))")
        }
        return Outcome(status: 0, problem: "no answer: \(hop.curlMessage)")
    }

    /// A new handle, set to keep its one connection when `connections` will keep the handle.
    private static func newTransfer(_ policy: SourcePolicy, keeping connections: HTTPPostConnections?) -> CurlTransfer? {
        guard let transfer = CurlTransfer(policy: policy, cancellation: TransferCancellation()) else { return nil }
        if let connections {
            let seconds = Int(connections.maxIdleAge.components.seconds)
            guard transfer.keepOneConnection(maxAgeSeconds: seconds) else { return nil }
        }
        return transfer
    }
}
