import DarkroomChains

/// Processors by name: how chain text becomes a `ProcessorChain`.
///
/// The standard processors register here exactly as external plugins will, so nothing in the
/// CLI or the pipeline knows a processor by name.
public struct ProcessorRegistry: Sendable {
    private var descriptors: [String: ProcessorDescriptor] = [:]

    public init() {}

    /// Adds a processor. Names are unique; registering one twice is a programming error in the
    /// plugin and is reported, not silently overwritten.
    public mutating func register(_ descriptor: ProcessorDescriptor) throws(RegistryError) {
        guard descriptors[descriptor.name] == nil else { throw .duplicateName(descriptor.name) }
        guard Self.isValidName(descriptor.name) else { throw .invalidName(descriptor.name) }
        guard !descriptor.isValidationOnly else { throw .validationOnly(descriptor.name) }
        descriptors[descriptor.name] = descriptor
    }

    /// The descriptor for `name`.
    public func descriptor(named name: String) -> ProcessorDescriptor? { descriptors[name] }

    /// Every registered descriptor, sorted by name.
    public var all: [ProcessorDescriptor] { descriptors.values.sorted { $0.name < $1.name } }

    /// Parses and builds a chain: `downsample(400x400)|>blur(4)`.
    public func chain(from text: String) throws(ChainError) -> ProcessorChain {
        try bind(ChainParser.parse(text))
    }

    /// Builds a chain from parsed calls, checking every argument.
    public func bind(_ parsed: ParsedChain) throws(ChainError) -> ProcessorChain {
        var processors: [any ImageProcessing] = []
        for call in parsed.calls {
            processors.append(try bind(call))
        }
        return ProcessorChain(processors)
    }

    /// Builds one parsed call's processor, checking every argument; errors carry the columns of
    /// the text the call was parsed from.
    public func bind(_ call: ParsedCall) throws(ChainError) -> any ImageProcessing {
        guard let descriptor = descriptors[call.name] else {
            throw ChainError.unknownProcessor(call, among: descriptors.keys.sorted())
        }
        let arguments = try descriptor.spec.bind(call)
        do {
            return try descriptor.make(arguments)
        } catch let error as ChainError {
            throw error
        } catch {
            throw ChainError(code: .invalidArgument, processor: call.name, column: call.column, message: "\(error)")
        }
    }

    /// True for a name made of letters, digits and `_`, starting with a letter: processor,
    /// parameter and choice names (`ProcessorSpec.isValidName`).
    public static func isValidName(_ name: String) -> Bool { ProcessorSpec.isValidName(name) }

    /// The same processors without their pixel code: what a program that only submits jobs
    /// checks chains against (`darkroom enqueue` hands this to the client library).
    public var validationOnly: ValidationOnlyRegistry { ValidationOnlyRegistry(specs: all.map(\.spec)) }
}

/// Why a processor could not be registered.
public enum RegistryError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicateName(String)
    case invalidName(String)
    /// A descriptor made from a schema (`ProcessorDescriptor.isValidationOnly`): it cannot run.
    case validationOnly(String)

    public var description: String {
        switch self {
        case .duplicateName(let name): return "a processor named '\(name)' is already registered"
        case .invalidName(let name): return "'\(name)' is not a valid processor name (letters, digits and _ only, starting with a letter)"
        case .validationOnly(let name):
            return "'\(name)' is known only by its schema and cannot run; a ValidationOnlyRegistry checks chains naming it"
        }
    }
}
