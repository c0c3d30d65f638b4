import DarkroomSystem

/// Where the event log lives and how it rotates.
public struct EventLogConfiguration: Sendable, Hashable {
    /// The current file; rotated files are `path.1` (newest) … `path.keep` (oldest).
    public var path: String
    /// A batch that leaves the current file larger than this rotates it. Default 100 MiB.
    public var maxBytes: Int64
    /// How many rotated files are kept (at least 1): the oldest beyond this is deleted.
    public var keep: Int
    /// How long opening waits for `FILE.lock` held elsewhere before refusing (`eventlog.locked`).
    /// A lock outlives its holder briefly: a process forked while it was held keeps it until it
    /// execs, and a coordinator that is just exiting still holds it. Default 3 s.
    public var lockWait: Duration

    public init(path: String, maxBytes: Int64 = 100 * 1024 * 1024, keep: Int = 10, lockWait: Duration = .seconds(3)) {
        self.path = path
        self.maxBytes = maxBytes
        self.keep = keep
        self.lockWait = lockWait
    }

    /// The rotated file `index` (1 = newest).
    public func rotatedPath(_ index: Int) -> String { "\(path).\(index)" }

    /// Refuses settings the log cannot work with (`eventlog.invalid-configuration`).
    func validate() throws(EventLogError) {
        guard maxBytes > 0 else {
            throw EventLogError(.invalidConfiguration, "the event log's maximum size must be positive (got \(maxBytes))")
        }
        guard keep >= 1 else {
            throw EventLogError(.invalidConfiguration, "the event log must keep at least 1 rotated file (got \(keep))")
        }
    }
}
