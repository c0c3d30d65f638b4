import DarkroomSchema

/// Processors known by their specs only — no pixel code — for checking chains and printing them
/// canonically: what a program that submits jobs needs (`DarkroomClient`), and how a chain naming
/// a processor known only by the schema a worker advertised is checked.
///
/// A chain is bound here exactly as a worker that has the processors binds it — every argument
/// checked with the same messages, columns and suggestions, defaults filled in, the spec's own
/// checks run — and printed canonically; but nothing here can run. Workers run chains from
/// `ProcessorRegistry` (`DarkroomCore`), whose `validationOnly` is this registry of its specs.
public struct ValidationOnlyRegistry: Sendable {
    private var specs: [String: ProcessorSpec] = [:]

    public init() {}

    /// A registry of `specs`; a later spec of one name replaces an earlier one.
    public init(specs: [ProcessorSpec]) {
        for spec in specs { register(spec) }
    }

    /// A registry of `schemas`; a later schema of one name replaces an earlier one.
    public init(_ schemas: [ProcessorSchema]) throws(ProcessorSchemaError) {
        for schema in schemas { try register(schema) }
    }

    /// Adds `spec`, replacing any of the same name.
    public mutating func register(_ spec: ProcessorSpec) {
        specs[spec.name] = spec
    }

    /// Adds the processor `schema` describes, replacing any of the same name; throws, adding
    /// nothing, when the schema cannot describe a processor.
    public mutating func register(_ schema: ProcessorSchema) throws(ProcessorSchemaError) {
        register(try ProcessorSpec(schema: schema))
    }

    /// The spec for `name`.
    public func spec(named name: String) -> ProcessorSpec? { specs[name] }

    /// The registered names, sorted.
    public var names: [String] { specs.keys.sorted() }

    /// Every registered spec, sorted by name.
    public var all: [ProcessorSpec] { specs.values.sorted { $0.name < $1.name } }

    /// What `call` stands for — its arguments bound, defaults filled in — ready to print
    /// (`canonicalText`) or identify (`versionedText`). Errors carry the columns of the text the
    /// call was parsed from, so a call from a longer chain points into that chain.
    public func invocation(of call: ParsedCall) throws(ChainError) -> ProcessorInvocation {
        guard let spec = specs[call.name] else { throw ChainError.unknownProcessor(call, among: names) }
        return spec.invocation(try spec.bind(call))
    }

    /// The canonical text of a chain whose processors are all registered here:
    /// `sepia(0.5)` → `sepia(0.5, tone: warm)`.
    public func canonicalText(of text: String) throws(ChainError) -> String {
        try canonicalText(of: ChainParser.parse(text))
    }

    /// The canonical text of parsed calls that are all registered here.
    public func canonicalText(of parsed: ParsedChain) throws(ChainError) -> String {
        var pieces: [String] = []
        for call in parsed.calls {
            pieces.append(try invocation(of: call).canonicalText)
        }
        return pieces.joined(separator: "|>")
    }
}
