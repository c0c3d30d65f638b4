import DarkroomChains
import DarkroomSystem

/// The output formats jobs may ask for: those this program knows (the standard ones, and a
/// plugin's with `darkroom enqueue --plugins`), and those live workers advertise (a plugin
/// module's format, installed on the workers only).
public struct EnqueueFormats: Sendable {
    /// The format names this program knows, with their aliases.
    public var local: OutputFormats
    /// Format names live workers write, lower-case.
    public var offeredByWorkers: Set<String>

    public init(local: OutputFormats = .standard, offeredByWorkers: Set<String> = []) {
        self.local = local
        self.offeredByWorkers = Set(offeredByWorkers.map { $0.lowercased() })
    }

    /// The standard formats only.
    public static let standard = EnqueueFormats()

    /// The name a job stores for `name` (`jpg` → `jpeg`), or nil when nobody writes it.
    public func canonicalName(_ name: String) -> String? {
        if let format = local.canonicalName(name) { return format }
        return offeredByWorkers.contains(name.lowercased()) ? name.lowercased() : nil
    }

    /// The names to suggest in an error: `jpeg, png, webp or avif`, and the workers' own.
    var names: String {
        let extra = offeredByWorkers.subtracting(local.names).sorted()
        let all = local.names + extra
        return all.joinedWithOr
    }
}
