import DarkroomSchema

/// Processors known only by the schemas workers advertise, for checking chains that name them.
///
/// A chain naming one is bound here as a worker that has the processor would bind it — every
/// argument checked with the same messages, columns and suggestions, defaults filled in — and
/// printed canonically; but nothing here has pixel code, so nothing here can run. Workers run
/// chains from `ProcessorRegistry`, which refuses the descriptors this registry holds.
public struct ValidationOnlyRegistry: Sendable {
    private var descriptors: [String: ProcessorDescriptor] = [:]

    public init() {}

    /// A registry of `schemas`; a later schema of one name replaces an earlier one.
    public init(_ schemas: [ProcessorSchema]) throws(ProcessorSchemaError) {
        for schema in schemas { try register(schema) }
    }

    /// Adds the processor `schema` describes, replacing any of the same name; throws, adding
    /// nothing, when the schema cannot describe a processor.
    public mutating func register(_ schema: ProcessorSchema) throws(ProcessorSchemaError) {
        descriptors[schema.name] = try ProcessorDescriptor(validationOnly: schema)
    }

    /// The validation-only descriptor for `name`.
    public func descriptor(named name: String) -> ProcessorDescriptor? { descriptors[name] }

    /// The registered names, sorted.
    public var names: [String] { descriptors.keys.sorted() }

    /// What `call` stands for — its arguments bound, defaults filled in — ready to print
    /// (`canonicalText`) or identify (`versionedText`). Errors carry the columns of the text the
    /// call was parsed from, so a call from a longer chain points into that chain.
    public func invocation(of call: ParsedCall) throws(ChainError) -> ProcessorInvocation {
        guard let descriptor = descriptors[call.name] else { throw ChainError.unknownProcessor(call, among: names) }
        return descriptor.invocation(try ArgumentBinder(descriptor: descriptor, call: call).bind())
    }

    /// The canonical text of a chain whose processors are all registered here:
    /// `sepia(0.5)` → `sepia(0.5, tone: warm)`.
    public func canonicalText(of text: String) throws(ChainError) -> String {
        var pieces: [String] = []
        for call in try ChainParser.parse(text).calls {
            pieces.append(try invocation(of: call).canonicalText)
        }
        return pieces.joined(separator: "|>")
    }
}
