import NIOCore

/// The front of a connection's pipeline, before the HTTP decoder: tells `RequestDeadlineHandler`
/// when raw bytes arrive, which the decoder only reports once a whole head is in. A slow head's
/// deadline starts at its first byte (the connection's start, for the first request).
final class RequestBytesWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let arrived: () -> Void

    init(arrived: @escaping () -> Void) { self.arrived = arrived }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        arrived()
        context.fireChannelRead(data)
    }
}
