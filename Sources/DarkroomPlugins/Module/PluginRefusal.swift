/// A plugin file or directory Darkroom did not load, and why. The other plugins still load.
public struct PluginRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The shared library or directory refused.
    public var path: String
    /// One line: what is wrong and what to do.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `plugin /p/libx.so refused: reason`.
    public var description: String { "plugin \(path) refused: \(reason)" }
}
