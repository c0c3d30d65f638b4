import DarkroomSystem

/// Outputs kept in memory, for tests and for embedding without a volume (as `MemoryQueue` is for
/// the queue). It keeps the `OutputSink` contract — atomic and idempotent per output, `.refuse`
/// and `.replace` on a taken name — and is durable only as long as the process lives.
///
/// Destinations are accepted when they start with one of `allowedPrefixes` (every destination
/// when nil). An output's location is `memory:` followed by its destination and name.
public final class MemorySink: OutputSink {
    /// Destinations outputs may go to (by prefix); nil: any.
    public let allowedPrefixes: [String]?
    private let outputs = Locked<[String: (bytes: [UInt8], owner: OutputOwner?)]>([:])

    public init(allowedPrefixes: [String]? = nil) {
        self.allowedPrefixes = allowedPrefixes
    }

    public func prepare(_ destination: String) async throws(OutputError) {
        try check(destination)
    }

    public func store(
        _ bytes: [UInt8], named name: String, in destination: String, owner: OutputOwner?, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput {
        try check(destination)
        guard OutputName.isValid(name) else { throw .badName(name) }
        let location = Self.location(name, in: destination)
        // Nil when stored; else the entry that refused it.
        let refusedBy: (bytes: [UInt8], owner: OutputOwner?)? = outputs.withLock { outputs in
            if onConflict == .refuse, let existing = outputs[location] {
                // The same bytes are this output already (a redelivery): kept, with their owner.
                return existing.bytes == bytes ? nil : existing
            }
            outputs[location] = (bytes, owner)
            return nil
        }
        if let refusedBy { throw .taken(location, owner: refusedBy.owner) }
        return StoredOutput(location: location, bytes: bytes)
    }

    /// The bytes stored at `location`, if any.
    public func bytes(at location: String) -> [UInt8]? {
        outputs.withLock { $0[location]?.bytes }
    }

    /// Who stored the output at `location`, if anyone said.
    public func owner(at location: String) -> OutputOwner? {
        outputs.withLock { $0[location]?.owner }
    }

    /// Every location holding an output, sorted.
    public var locations: [String] {
        outputs.withLock { $0.keys.sorted() }
    }

    /// The location of `name` in `destination`.
    public static func location(_ name: String, in destination: String) -> String {
        "memory:" + (destination.hasSuffix("/") ? destination : destination + "/") + name
    }

    private func check(_ destination: String) throws(OutputError) {
        guard let allowedPrefixes else { return }
        guard allowedPrefixes.contains(where: { destination.hasPrefix($0) }) else {
            throw .notAllowed(destination, roots: allowedPrefixes)
        }
    }
}
