/// What the registry knows about a processor: its name, version, parameters and how to make one.
///
/// The standard processors and external plugins describe themselves the same way; the CLI, the
/// chain parser and `darkroom plugins` read only descriptors.
public struct ProcessorDescriptor: Sendable {
    public var name: String
    /// The algorithm version; must equal the `version` in the processors' `invocation`.
    public var version: Int
    /// One line for `darkroom plugins` and the README.
    public var summary: String
    /// Parameters in positional order.
    public var parameters: [ParameterSpec]
    /// Makes the processor from arguments already checked against `parameters` (present, of the
    /// right kind, in range). It throws `arguments.invalid(…)` for checks the kinds cannot express.
    public var make: @Sendable (ProcessorArguments) throws -> any ImageProcessing
    /// The external plugin module the processor comes from (its processors' invocations carry the
    /// same identity); nil for the standard processors.
    public var module: PluginModuleIdentity?
    /// True for a descriptor made from a `ProcessorSchema` (`init(validationOnly:)`): it checks
    /// and prints arguments but has no pixel code, so `ProcessorRegistry`, which workers run
    /// chains from, refuses it.
    public internal(set) var isValidationOnly = false

    public init(
        name: String, version: Int, summary: String, parameters: [ParameterSpec], module: PluginModuleIdentity? = nil,
        make: @escaping @Sendable (ProcessorArguments) throws -> any ImageProcessing
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.parameters = parameters
        self.module = module
        self.make = make
    }

    /// `name(required, optional: default, …)`, for help texts.
    public var signature: String {
        guard !parameters.isEmpty else { return name }
        let parts = parameters.map { p in
            p.defaultValue.map { "\(p.name): \($0)" } ?? p.name
        }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }
}

/// Arguments bound to a processor's parameters, every parameter present (defaults filled in).
///
/// Accessors trap when asked for a parameter the descriptor does not declare or with the wrong
/// kind: that is a bug in the processor's factory, not bad user input, which the binder has
/// already turned into a `ChainError`.
public struct ProcessorArguments: Sendable {
    public let processor: String
    private let values: [String: (value: ArgumentValue, column: Int)]
    /// Column of the processor's name, used for arguments that came from defaults.
    private let column: Int

    init(processor: String, column: Int, values: [String: (value: ArgumentValue, column: Int)]) {
        self.processor = processor
        self.column = column
        self.values = values
    }

    public func value(_ name: String) -> ArgumentValue {
        guard let entry = values[name] else { preconditionFailure("\(processor) has no parameter '\(name)'") }
        return entry.value
    }

    public func number(_ name: String) -> Double {
        guard case .number(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a number") }
        return v
    }

    public func integer(_ name: String) -> Int { Int(number(name)) }

    public func size(_ name: String) -> PixelSize {
        guard case .size(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a size") }
        return v
    }

    public func color(_ name: String) -> RGBAColor {
        guard case .color(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a colour") }
        return v
    }

    public func word(_ name: String) -> String {
        guard case .word(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a word") }
        return v
    }

    public func words(_ name: String) -> [String] {
        guard case .words(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a list") }
        return v
    }

    public func anchor(_ name: String) -> UnitPoint {
        guard case .point(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not an anchor") }
        return v
    }

    /// An error for argument `name`: `blur: radius must be > 0 (got -3) at column 31`.
    public func invalid(_ name: String, _ message: String) -> ChainError {
        ChainError(
            code: .invalidArgument, processor: processor, argument: name,
            column: values[name]?.column ?? column, message: "\(name) \(message)")
    }
}

extension ProcessorDescriptor {
    /// The invocation of this descriptor's processor with `arguments`: every parameter in declared
    /// order, the leading required ones printed without labels, as the standard processors print.
    /// Processors described only by their parameters (external plugins, schemas a worker
    /// advertises) print canonically through this.
    public func invocation(_ arguments: ProcessorArguments) -> ProcessorInvocation {
        let positional = parameters.prefix { $0.isRequired }.count
        return ProcessorInvocation(
            name: name, version: version,
            arguments: parameters.map { ($0.name, arguments.value($0.name)) },
            positionalCount: positional, module: module)
    }
}
