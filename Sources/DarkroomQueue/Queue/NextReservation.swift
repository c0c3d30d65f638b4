/// What a consumer asks to have reserved in the same call that acknowledges its finished jobs
/// (`JobQueueDriver.acknowledge(_:publishing:reserving:)`): a worker with free slots takes its
/// next jobs without a call of their own.
public struct NextReservation: Sendable, Equatable {
    /// The consumer the jobs are leased to.
    public var consumer: String
    /// The most jobs to hand out; 0 reserves nothing.
    public var max: Int
    /// The capabilities the consumer offers, as in `reserve`.
    public var offering: Set<String>

    public init(consumer: String, max: Int, offering: Set<String> = []) {
        self.consumer = consumer
        self.max = max
        self.offering = offering
    }
}

/// The answer of `JobQueueDriver.acknowledge(_:publishing:reserving:)`.
public struct AcknowledgedAndReserved: Sendable {
    /// One per outcome, in order, as `acknowledge(_:)` answers.
    public var acknowledged: [Bool]
    /// The jobs reserved for the `NextReservation` (never more than its `max`; none when nothing
    /// was ready: the call does not wait).
    public var reserved: [JobDelivery]

    public init(acknowledged: [Bool], reserved: [JobDelivery]) {
        self.acknowledged = acknowledged
        self.reserved = reserved
    }
}
