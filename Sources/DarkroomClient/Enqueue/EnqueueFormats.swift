import DarkroomCodecs

/// The output formats jobs may ask for: those this program's encoders write, and those live
/// workers advertise (a plugin module's format, installed on the workers only).
public struct EnqueueFormats: Sendable {
    /// This program's encoders (the standard ones, plus a plugin's with `--plugins`).
    public var local: CoderRegistry
    /// Format names live workers write, lower-case.
    public var offeredByWorkers: Set<String>

    public init(local: CoderRegistry = .standard, offeredByWorkers: Set<String> = []) {
        self.local = local
        self.offeredByWorkers = Set(offeredByWorkers.map { $0.lowercased() })
    }

    /// The standard encoders only.
    public static let standard = EnqueueFormats()

    /// The name a job stores for `name` (`jpg` → `jpeg`), or nil when nobody writes it.
    public func canonicalName(_ name: String) -> String? {
        if let format = local.writableFormat(named: name) { return format.rawValue }
        return offeredByWorkers.contains(name.lowercased()) ? name.lowercased() : nil
    }

    /// The names to suggest in an error: `jpeg, png or webp`, and the workers' own.
    var names: String {
        let extra = offeredByWorkers.subtracting(local.encoders.map(\.format.rawValue)).sorted()
        let all = local.encoders.map(\.format.rawValue) + extra
        return all.joinedWithOr
    }
}
