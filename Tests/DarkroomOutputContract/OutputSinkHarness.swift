import DarkroomOutput

/// One sink under test, with what the contract needs to look behind it: an accepted and a
/// refused destination, and a way to read what is stored without going through the sink.
public struct OutputSinkHarness: Sendable {
    public var sink: any OutputSink
    /// A destination the sink accepts, empty at the start.
    public var destination: String
    /// A destination the sink refuses.
    public var refusedDestination: String
    /// The bytes at a location the sink reported, read independently of it (nil: nothing there).
    public var read: @Sendable (_ location: String) -> [UInt8]?
    /// Every entry in `destination`, temporary files included, sorted.
    public var entries: @Sendable () -> [String]
    /// Removes what the harness made.
    public var cleanUp: @Sendable () -> Void

    public init(
        sink: any OutputSink, destination: String, refusedDestination: String,
        read: @escaping @Sendable (_ location: String) -> [UInt8]?, entries: @escaping @Sendable () -> [String],
        cleanUp: @escaping @Sendable () -> Void = {}
    ) {
        self.sink = sink
        self.destination = destination
        self.refusedDestination = refusedDestination
        self.read = read
        self.entries = entries
        self.cleanUp = cleanUp
    }
}

/// Makes a fresh harness for one check.
public typealias OutputSinkFactory = @Sendable () throws -> OutputSinkHarness

extension OutputSinkHarness {
    /// Runs `body` with a fresh harness from `make`, cleaning up afterwards whatever happens.
    static func with(_ make: OutputSinkFactory, _ body: (OutputSinkHarness) async throws -> Void) async throws {
        let harness = try make()
        defer { harness.cleanUp() }
        try await body(harness)
    }
}
