/// A processor described the way the chain syntax writes it: name, version, and every argument.
///
/// Arguments are listed in the order of the processor's parameters, with defaults filled in. The
/// first `positionalCount` are printed without labels (the required ones); the rest as
/// `label: value`. Printing is therefore canonical: two spellings of one processor print the same.
public struct ProcessorInvocation: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    /// The algorithm version; part of `versionedText` and so of cache keys.
    public var version: Int
    public var arguments: [(label: String, value: ArgumentValue)]
    public var positionalCount: Int
    /// The external plugin module the processor comes from; nil for the standard processors.
    /// Part of `versionedText` (and so of cache keys), never of `canonicalText`.
    public var module: PluginModuleIdentity?

    public init(
        name: String, version: Int, arguments: [(label: String, value: ArgumentValue)] = [], positionalCount: Int = 0,
        module: PluginModuleIdentity? = nil
    ) {
        self.name = name
        self.version = version
        self.arguments = arguments
        self.positionalCount = positionalCount
        self.module = module
    }

    /// `name(a, b, key: value)`, or `name` alone when there are no arguments.
    public var canonicalText: String { render(name: name) }

    /// `name.vN(a, b, key: value)`, or `name.vN[module version](a, b, key: value)` for a
    /// processor from an external plugin module.
    public var versionedText: String { render(name: "\(name).v\(version)\(module?.identifierPart ?? "")") }

    public var description: String { canonicalText }

    private func render(name: String) -> String {
        guard !arguments.isEmpty else { return name }
        let parts = arguments.enumerated().map { index, argument in
            index < positionalCount ? argument.value.description : "\(argument.label): \(argument.value)"
        }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }

    public static func == (lhs: ProcessorInvocation, rhs: ProcessorInvocation) -> Bool {
        lhs.name == rhs.name && lhs.version == rhs.version && lhs.module == rhs.module && lhs.positionalCount == rhs.positionalCount
            && lhs.arguments.count == rhs.arguments.count
            && zip(lhs.arguments, rhs.arguments).allSatisfy { $0.label == $1.label && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(version)
        hasher.combine(module)
        for argument in arguments {
            hasher.combine(argument.label)
            hasher.combine(argument.value)
        }
    }
}
