/// The plugin module a processor comes from, as it appears in the processor's identifier.
///
/// A processor from an external module carries its module's name and version in its identifier,
/// `mosaic.v1[acme 1.2.0](8)`, so upgrading the plugin retires the results cached with the old
/// one. The brackets and the space are chosen because neither `@` nor `#` may appear: those
/// separate a cache key's parts. The standard processors ship inside the `darkroom` binary and
/// carry no module part; their algorithm version (`.v1`) alone retires their cached results.
public struct PluginModuleIdentity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The module's name: lower-case letters, digits, `-` and `_`, starting with a letter.
    public var name: String
    /// The module's version: letters, digits, `.`, `-` and `+` (for example `1.2.0`).
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// `[name version]`, the part of an identifier between the algorithm version and the arguments.
    public var identifierPart: String { "[\(name) \(version)]" }

    public var description: String { "\(name) \(version)" }

    /// Why `name` cannot name a module, or nil when it can.
    public static func problem(withName name: String) -> String? {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
            return "module name '\(name)' must start with a lower-case letter"
        }
        guard name.unicodeScalars.count <= 64 else { return "module name '\(name)' is longer than 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        return allowed ? nil : "module name '\(name)' may hold only lower-case letters, digits, - and _"
    }

    /// Why `version` cannot be a module version, or nil when it can.
    public static func problem(withVersion version: String) -> String? {
        guard !version.isEmpty, version.unicodeScalars.count <= 64 else {
            return "module version '\(version)' must be 1 to 64 characters"
        }
        let allowed = version.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "+"
        }
        return allowed ? nil : "module version '\(version)' may hold only letters, digits, '.', '-' and '+'"
    }
}
