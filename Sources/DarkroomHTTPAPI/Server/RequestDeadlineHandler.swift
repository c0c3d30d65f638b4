import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds how long a client may take to send a request, so a slow client (one header or body
/// byte every few seconds: slowloris) cannot hold a connection, and a slot of
/// `APIConfiguration.maxConnections`, for ever. The idle timeout alone does not: every byte
/// resets it.
///
/// - **head**: from the connection's start, or from the first byte after the previous response,
///   to the end of the headers: `APIConfiguration.headTimeout`;
/// - **body**: from the end of the headers to the last body byte: `APIConfiguration.bodyTimeout`.
///
/// Past a deadline the client gets `408` with an `api.request-timeout` error, where an answer
/// can still be written (no response of the connection is under way), then the connection
/// closes; a connection that has sent nothing since its last response is closed without one
/// (the client may be about to send a request, which would take the 408 for its answer).
///
/// It sits after the HTTP decoder (it sees request heads and bodies, and the responses
/// written), and puts a `RequestBytesWatcher` at the front of the pipeline to learn when raw
/// bytes arrive. Both run on the channel's event loop.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Phase {
        /// Between requests, nothing sent yet: the idle timeout governs.
        case idle
        /// Reading a head (deadline armed); `bytes`: some of it has arrived.
        case head(bytes: Bool)
        /// Reading a body (deadline armed).
        case body
        /// The request is read; its answer is being made.
        case answering
        /// A deadline passed: reads are dropped, the app's writes refused, the channel closing.
        case timedOut
    }

    private let headTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var phase = Phase.head(bytes: false)
    /// Requests whose head was read and whose response has not ended (more than one when
    /// pipelined).
    private var unanswered = 0
    /// A response head was written and its end not yet.
    private var responding = false
    /// Bytes arrived while answering: the next request has begun (pipelined).
    private var earlyBytes = false
    private var deadline: Scheduled<Void>?

    init(headTimeout: Duration, bodyTimeout: Duration) {
        self.headTimeout = Self.amount(headTimeout)
        self.bodyTimeout = Self.amount(bodyTimeout)
    }

    static func amount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let watcher = RequestBytesWatcher { [weak self] in self?.bytesArrived(context: context) }
        // A pipeline that cannot take the watcher still has the deadlines from each response.
        try? context.pipeline.syncOperations.addHandler(watcher, position: .first)
        arm(headTimeout, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    /// Raw bytes reached the front of the pipeline (before the decoder has seen them).
    func bytesArrived(context: ChannelHandlerContext) {
        switch phase {
        case .idle:
            phase = .head(bytes: true)
            arm(headTimeout, context: context)
        case .head:
            phase = .head(bytes: true)
        case .answering:
            earlyBytes = true
        case .body, .timedOut:
            break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .timedOut = phase { return }
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            earlyBytes = false
            phase = .body
            arm(bodyTimeout, context: context)
        case .body:
            break
        case .end:
            disarm()
            phase = unanswered == 0 ? .idle : .answering
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .timedOut = phase {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .body: break
        case .end: responseEnded(context: context)
        }
        context.write(data, promise: promise)
    }

    private func responseEnded(context: ChannelHandlerContext) {
        responding = false
        unanswered = max(0, unanswered - 1)
        guard case .answering = phase, unanswered == 0 else { return }
        if earlyBytes {
            earlyBytes = false
            phase = .head(bytes: true)
            arm(headTimeout, context: context)
        } else {
            phase = .idle
        }
    }

    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [weak self] in
            self?.expire(context: context)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func expire(context: ChannelHandlerContext) {
        let (answerable, part, timeout): (Bool, String, TimeAmount)
        switch phase {
        case .head(let bytes): (answerable, part, timeout) = (bytes && unanswered == 0, "headers", headTimeout)
        case .body: (answerable, part, timeout) = (unanswered == 1 && !responding, "body", bodyTimeout)
        case .idle, .answering, .timedOut: return
        }
        phase = .timedOut
        deadline = nil
        guard answerable, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        let seconds = Double(timeout.nanoseconds) / 1e9
        let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        let body = APIResponse.errorBody([
            ErrorRecord(APIError(.requestTimeout, "the request's \(part) did not arrive within \(shown) s; send requests at network speed"))
        ])
        var head = HTTPResponse(status: .requestTimeout)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        // Close our side once the answer is out (a full close with unread bytes would reset the
        // connection and could destroy the answer before the client reads it), then all of it.
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(mode: .output, promise: nil)
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { context.close(promise: nil) }
    }
}
