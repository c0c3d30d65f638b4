/// A processor as the chain syntax knows it: its name, version, parameters and the checks its
/// arguments must pass — everything needed to check a chain and print it canonically, and no
/// pixel code.
///
/// The standard processors and external plugins describe themselves the same way. A program that
/// only submits chains (the client library) holds specs in a `ValidationOnlyRegistry`; a worker
/// pairs each spec with the code that makes the processor (`ProcessorDescriptor` in
/// `DarkroomCore`). Both bind arguments through `bind(_:)`, so a chain one accepts the other
/// accepts, with the same canonical text and the same errors.
public struct ProcessorSpec: Sendable {
    /// Checks arguments must pass beyond what their parameters' kinds express (that one argument
    /// is smaller than another, say); throws `arguments.invalid(…)`.
    public typealias Check = @Sendable (ProcessorArguments) throws(ChainError) -> Void

    public var name: String
    /// The algorithm version; must equal the `version` in the processors' `invocation`.
    public var version: Int
    /// One line for `darkroom plugins` and the README.
    public var summary: String
    /// Parameters in positional order.
    public var parameters: [ParameterSpec]
    /// The external plugin module the processor comes from (its processors' invocations carry the
    /// same identity); nil for the standard processors.
    public var module: PluginModuleIdentity?
    /// Run after the arguments are bound; nil when the kinds say it all. A `ProcessorSchema`
    /// cannot carry it: a program that knows a processor only by a worker's schema leaves this
    /// check to the worker.
    public var check: Check?

    public init(
        name: String, version: Int, summary: String, parameters: [ParameterSpec], module: PluginModuleIdentity? = nil,
        check: Check? = nil
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.parameters = parameters
        self.module = module
        self.check = check
    }

    /// `name(required, optional: default, …)`, for help texts.
    public var signature: String {
        guard !parameters.isEmpty else { return name }
        let parts = parameters.map { p in
            p.defaultValue.map { "\(p.name): \($0)" } ?? (p.isOptional ? "[\(p.name)]" : p.name)
        }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }

    /// `call`'s arguments matched to the parameters, defaults filled in, every check run. Errors
    /// carry the columns of the text the call was parsed from.
    public func bind(_ call: ParsedCall) throws(ChainError) -> ProcessorArguments {
        let arguments = try ArgumentBinder(spec: self, call: call).bind()
        try check?(arguments)
        return arguments
    }

    /// The invocation of this processor with `arguments`: every parameter in declared order, an
    /// optional one only when given; the leading ones without a default printed without labels
    /// while they are present (and positional spellings), as the standard processors print.
    /// Processors described only by their parameters (external plugins, schemas a worker
    /// advertises) print canonically through this.
    public func invocation(_ arguments: ProcessorArguments) -> ProcessorInvocation {
        let positional = parameters.prefix { p in
            p.defaultValue == nil && p.kind.printsPositionally && arguments.has(p.name)
        }.count
        return ProcessorInvocation(
            name: name, version: version,
            arguments: parameters.compactMap { p in arguments.optionalValue(p.name).map { (p.name, $0) } },
            positionalCount: positional, module: module)
    }

    /// True for a name made of letters, digits and `_`, starting with a letter: processor,
    /// parameter and choice names.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }
}
