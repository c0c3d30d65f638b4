/// What an `EventSource` does when its consumer is slower than the stream.
public enum EventBufferPolicy: Sendable, Hashable {
    /// Pull-based: a page is read only when the consumer has taken the previous one, so a slow
    /// consumer slows the reading and at most one page is held. Nothing is lost to slowness (the
    /// stream's own trimming can still leave a gap). The default.
    case backpressure
    /// A reading task keeps up with the stream whatever the consumer does, into a buffer of at
    /// most `limit` events; when it is full the oldest buffered event is discarded. Discarded
    /// events are counted and reported in-band (`EventItem.dropped`). For live views (a dashboard,
    /// a terminal follower) where being current matters more than being complete. `limit` is at
    /// least 1.
    case dropOldest(limit: Int)
}
