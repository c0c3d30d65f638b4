import NIOCore

/// The front of a connection's pipeline, before the HTTP decoder: tells `RequestDeadlineHandler`
/// when raw bytes arrive, which the decoder only reports once a whole head is in. A slow head's
/// deadline starts at its first byte (the connection's start, for the first request). It also
/// notes when the client closes its side (`inputClosed`).
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let arrived: () -> Void
    /// The client closed its side of the connection (end of input). The server allows
    /// half-closure, so the channel stays active to write the answer; a request still being
    /// answered is then for nobody (`APIRequestContext.clientConnected`). Read on the event loop.
    private(set) var inputClosed = false

    init(arrived: @escaping () -> Void) { self.arrived = arrived }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        arrived()
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { inputClosed = true }
        context.fireUserInboundEventTriggered(event)
    }
}
