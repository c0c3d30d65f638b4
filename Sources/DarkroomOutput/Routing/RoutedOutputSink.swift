/// One `OutputSink` over several: a destination naming a URL scheme this sink routes
/// (`s3://bucket/prefix/`) goes to that scheme's sink, every other destination (a directory) to
/// the volume's. The worker holds one sink (`WorkerConfiguration.outputs`); this is how a worker
/// with object storage configured writes to buckets and to the volume alike.
///
/// It adds no behaviour of its own: each call is the chosen sink's, so the contract holds as
/// each sink keeps it. A destination with a scheme no sink is given for is refused with
/// `output.not-allowed` rather than taken as a relative directory.
public struct RoutedOutputSink: OutputSink {
    /// The sink for directories on the output volume.
    public let volume: any OutputSink
    /// The sinks for URL destinations, by lower-case scheme (`s3`).
    public let schemes: [String: any OutputSink]

    /// - Parameters:
    ///   - volume: where directory destinations go (`VolumeSink`).
    ///   - schemes: where `scheme://…` destinations go, by scheme (any case).
    public init(volume: any OutputSink, schemes: [String: any OutputSink]) {
        self.volume = volume
        self.schemes = Dictionary(schemes.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public func prepare(_ destination: String) async throws(OutputError) {
        try await sink(for: destination).prepare(destination)
    }

    public func store(
        _ bytes: [UInt8], named name: String, in destination: String, owner: OutputOwner?, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput {
        try await sink(for: destination).store(bytes, named: name, in: destination, owner: owner, onConflict: onConflict)
    }

    /// The sink for `destination`: its scheme's, the volume's for a path.
    func sink(for destination: String) throws(OutputError) -> any OutputSink {
        guard let scheme = Self.scheme(of: destination) else { return volume }
        guard let sink = schemes[scheme] else {
            let known = schemes.keys.sorted().map { "\($0)://" }
            let why =
                known.isEmpty
                ? "this worker writes outputs only to directories"
                : "this worker writes outputs to directories and to \(known.joined(separator: ", ")) destinations"
            throw OutputError(.notAllowed, "output destination '\(destination)' refused: \(why)")
        }
        return sink
    }

    /// The lower-case scheme of `scheme://…`, or nil for a path.
    static func scheme(of destination: String) -> String? {
        guard let colon = destination.firstIndex(of: ":"), destination[colon...].hasPrefix("://") else { return nil }
        let scheme = destination[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return scheme.lowercased()
    }
}
