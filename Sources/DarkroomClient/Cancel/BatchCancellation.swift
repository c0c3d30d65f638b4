/// What `FleetClient.cancel(batch:)` did.
public struct BatchCancellation: Sendable, Equatable {
    /// The batch named.
    public var batch: String
    /// Queued and delayed jobs dropped, each with its `cancelled` event.
    public var cancelled: Int
    /// Jobs of the batch neither dropped nor finished: running (or being handed out); they end
    /// normally.
    public var running: Int

    /// A report of `cancelled` jobs dropped from `batch`, `running` left to finish.
    public init(batch: String, cancelled: Int, running: Int) {
        self.batch = batch
        self.cancelled = cancelled
        self.running = running
    }
}
