import DarkroomCoordinator
import DarkroomQueue
import HTTPTypes
import Hummingbird

/// `GET /events`: the event stream as Server-Sent Events.
///
/// Each event is `id: STREAMID` and `data: RECORD`, the record exactly as the event log writes it
/// (the stream's event record plus `streamId`). A client that sends `Last-Event-ID` (browsers do
/// when they reconnect; `?lastEventId=` for the first connect) first gets every event after that id
/// the stream still holds, then the live events, with none missing or repeated at the seam: the
/// live feed is subscribed before the catch-up is read, and live events at or before the last one
/// sent are skipped. `?batch=NAME` keeps only that batch's events. An idle stream gets a comment
/// line every `heartbeat`. A client that falls more than its buffer behind gets a comment saying
/// so and is disconnected; it reconnects with `Last-Event-ID`.
struct ServerSentEvents: Sendable {
    let queue: any JobQueueDriver
    let broadcaster: EventBroadcaster
    let heartbeat: Duration
    /// Events read per catch-up request.
    static let catchUpPage = 500

    func response(for request: Request) -> Response {
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters["lastEventId"].map(String.init)
        let batch = request.uri.queryParameters["batch"].map(String.init)
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        let body = ResponseBody { [queue, heartbeat, broadcaster] writer in
            // Subscribed before the catch-up is read, so no event falls between the two.
            let subscription = broadcaster.subscribe()
            defer { subscription.cancel() }
            let ticker = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: heartbeat)
                    _ = subscription.offer(.heartbeat)
                }
            }
            defer { ticker.cancel() }
            // Tells EventSource how soon to reconnect after a disconnect.
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            var sent: StreamPosition?
            if let lastEventID, !lastEventID.isEmpty {
                do {
                    sent = try await Self.catchUp(after: EventCursor(rawValue: lastEventID), batch: batch, queue: queue, writer: &writer)
                } catch let error as JobQueueError where error.code == .invalidCursor {
                    // Not an id of this stream (another deployment's, or typed by hand): failing
                    // would make EventSource reconnect with it forever, so follow live events.
                    try await writer.write(ByteBuffer(string: ": Last-Event-ID is not an id of this stream; live events follow\n\n"))
                }
            }
            for await item in subscription.items {
                switch item {
                case .heartbeat:
                    try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                case .event(let envelope):
                    if let sent, let position = StreamPosition(envelope.cursor), position <= sent { continue }
                    guard Self.matches(envelope, batch: batch) else { continue }
                    try await writer.write(Self.frame(envelope))
                }
            }
            if subscription.fellBehind.load(ordering: .relaxed) {
                try await writer.write(ByteBuffer(string: ": fell behind; reconnect with Last-Event-ID\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Writes every retained event after `cursor` (of `batch`, if given); returns the position of
    /// the last one read, or of `cursor` when there was none.
    static func catchUp(
        after cursor: EventCursor, batch: String?, queue: any JobQueueDriver, writer: inout any ResponseBodyWriter
    ) async throws -> StreamPosition? {
        var cursor = cursor
        var sent = StreamPosition(cursor)
        while true {
            let page = try await queue.readEvents(after: cursor, limit: catchUpPage, wait: .zero)
            for envelope in page where matches(envelope, batch: batch) {
                try await writer.write(frame(envelope))
            }
            guard let last = page.last else { return sent }
            cursor = last.cursor
            sent = StreamPosition(cursor)
            if page.count < catchUpPage { return sent }
        }
    }

    static func matches(_ envelope: EventEnvelope, batch: String?) -> Bool {
        batch == nil || envelope.event.batch == batch
    }

    /// `id: …\ndata: …\n\n`; the JSON record holds no raw newline (JSON escapes them).
    static func frame(_ envelope: EventEnvelope) throws -> ByteBuffer {
        var line = try EventLogRecord.lines([envelope], gap: nil)
        if line.last == UInt8(ascii: "\n") { line.removeLast() }
        var buffer = ByteBuffer(string: "id: \(envelope.cursor.rawValue)\ndata: ")
        buffer.writeBytes(line)
        buffer.writeString("\n\n")
        return buffer
    }
}
