import DarkroomChains
import DarkroomSchema

/// A processor's spec paired with the code that makes it: what a `ProcessorRegistry` runs chains
/// from.
///
/// The spec (`DarkroomChains`) is everything the chain syntax knows — name, version, parameters,
/// checks — and is all a program that only submits jobs needs; `make` is the pixel side. The
/// standard processors and external plugins are described the same way.
public struct ProcessorDescriptor: Sendable {
    /// Name, version, summary, parameters, module and checks.
    public var spec: ProcessorSpec
    /// Makes the processor from arguments already bound by `spec.bind(_:)` (present, of the right
    /// kind, in range, checked).
    public var make: @Sendable (ProcessorArguments) throws -> any ImageProcessing
    /// True for a descriptor made from a `ProcessorSchema` (`init(validationOnly:)`): it checks
    /// and prints arguments but has no pixel code, so `ProcessorRegistry`, which workers run
    /// chains from, refuses it.
    public internal(set) var isValidationOnly = false

    /// `spec` with its pixel code.
    public init(_ spec: ProcessorSpec, make: @escaping @Sendable (ProcessorArguments) throws -> any ImageProcessing) {
        self.spec = spec
        self.make = make
    }

    public init(
        name: String, version: Int, summary: String, parameters: [ParameterSpec], module: PluginModuleIdentity? = nil,
        make: @escaping @Sendable (ProcessorArguments) throws -> any ImageProcessing
    ) {
        self.init(ProcessorSpec(name: name, version: version, summary: summary, parameters: parameters, module: module), make: make)
    }

    /// A descriptor for a processor known only by the schema a worker advertised: it binds and
    /// prints as the original does, but `make` throws and `ProcessorRegistry` refuses it. A
    /// `ValidationOnlyRegistry` holds such processors without pretending they can run.
    public init(validationOnly schema: ProcessorSchema) throws(ProcessorSchemaError) {
        let name = schema.name
        self.init(try ProcessorSpec(schema: schema)) { _ in
            throw ProcessorSchemaError(processor: name, message: "known here only by its schema: it can be checked and printed, not run")
        }
        isValidationOnly = true
    }

    public var name: String {
        get { spec.name }
        set { spec.name = newValue }
    }
    public var version: Int {
        get { spec.version }
        set { spec.version = newValue }
    }
    public var summary: String {
        get { spec.summary }
        set { spec.summary = newValue }
    }
    public var parameters: [ParameterSpec] {
        get { spec.parameters }
        set { spec.parameters = newValue }
    }
    public var module: PluginModuleIdentity? {
        get { spec.module }
        set { spec.module = newValue }
    }

    /// `name(required, optional: default, …)`, for help texts.
    public var signature: String { spec.signature }

    /// The invocation of this processor with `arguments`, as `ProcessorSpec.invocation(_:)`.
    public func invocation(_ arguments: ProcessorArguments) -> ProcessorInvocation { spec.invocation(arguments) }

    /// The parameters with every default checked, as `ProcessorSpec.checkedParameters()`.
    public func checkedParameters() throws(ChainError) -> [ParameterSpec] { try spec.checkedParameters() }
}

extension ProcessorSchema {
    /// The schema of `descriptor`'s spec.
    public init(_ descriptor: ProcessorDescriptor) { self.init(descriptor.spec) }
}
