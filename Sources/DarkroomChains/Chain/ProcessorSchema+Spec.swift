import DarkroomSchema

extension ProcessorSchema {
    /// The schema of `spec`: name, version, summary, module, and each parameter with its kind and
    /// its default printed as canonical chain text. A non-finite bound of a number range is
    /// written as an absent (unbounded) one: JSON has no infinities. The spec's `check` has no
    /// record form and is left out.
    public init(_ spec: ProcessorSpec) {
        self.init(
            name: spec.name, version: spec.version, summary: spec.summary,
            module: spec.module.map { Module(name: $0.name, version: $0.version) },
            parameters: spec.parameters.map { parameter in
                Parameter(
                    name: parameter.name, kind: Kind(parameter.kind), defaultText: parameter.defaultValue?.description,
                    isOptional: parameter.isOptional, summary: parameter.summary)
            })
    }
}

extension ProcessorSchema.Kind {
    init(_ kind: ParameterSpec.Kind) {
        func bound(_ value: Double) -> Double? { value.isFinite ? value : nil }
        switch kind {
        case .number(let range): self = .number(min: bound(range.lowerBound), max: bound(range.upperBound))
        case .positive(let max): self = .positive(max: bound(max))
        case .integer(let range): self = .integer(min: range.lowerBound, max: range.upperBound)
        case .size: self = .size
        case .box: self = .box
        case .color: self = .color
        case .choice(let words): self = .choice(words)
        case .choiceSet(let words): self = .choiceSet(words)
        case .anchor: self = .anchor
        case .point: self = .point
        case .ratio: self = .ratio
        case .text(let maxLength): self = .text(maxLength: maxLength)
        }
    }
}

extension ProcessorSpec {
    /// The spec of a processor this program knows only by the schema a worker advertised: its
    /// arguments bind as the original's do (the same values, defaults, messages, columns and
    /// suggestions) and print the same canonical text. Checks the original's `check` would make
    /// beyond its parameters' kinds are not in the schema; the worker makes them when it runs
    /// the job.
    public init(schema: ProcessorSchema) throws(ProcessorSchemaError) {
        let name = schema.name
        func problem(_ message: String) -> ProcessorSchemaError { ProcessorSchemaError(processor: name, message: message) }
        guard ProcessorSpec.isValidName(name) else { throw problem("'\(name)' is not a valid processor name") }
        var module: PluginModuleIdentity?
        if let given = schema.module {
            if let issue = PluginModuleIdentity.problem(withName: given.name) ?? PluginModuleIdentity.problem(withVersion: given.version) {
                throw problem(issue)
            }
            module = PluginModuleIdentity(name: given.name, version: given.version)
        }
        let parameters = try ParameterSpec.parameters(from: schema.parameters, processor: name)
        self.init(name: name, version: schema.version, summary: schema.summary, parameters: parameters, module: module)
    }
}

extension ParameterSpec {
    /// The binder's parameters for a schema's, in order: names valid and distinct, ranges in
    /// order, defaults read back from their canonical text. Shared by every processor described
    /// outside Swift: a worker's advertised schema, a C plugin's parameter table.
    public static func parameters(from schema: [ProcessorSchema.Parameter], processor name: String) throws(ProcessorSchemaError) -> [ParameterSpec] {
        func problem(_ message: String) -> ProcessorSchemaError { ProcessorSchemaError(processor: name, message: message) }
        var parameters: [ParameterSpec] = []
        for parameter in schema {
            guard ProcessorSpec.isValidName(parameter.name) else { throw problem("'\(parameter.name)' is not a valid parameter name") }
            guard !parameters.contains(where: { $0.name == parameter.name }) else { throw problem("parameter \(parameter.name) is given twice") }
            guard let kind = parameter.kind.parameterKind else { throw problem("\(parameter.name) has a range whose bounds are out of order") }
            var spec = ParameterSpec(parameter.name, kind, summary: parameter.summary)
            spec.isOptional = parameter.isOptional
            if parameter.isOptional, parameter.defaultText != nil {
                throw problem("\(parameter.name) is optional and has a default; an optional parameter has none")
            }
            if let text = parameter.defaultText {
                do {
                    spec.defaultValue = defaultValue(try ChainParser.value(text), for: kind)
                } catch {
                    throw problem("the default of \(parameter.name), '\(text)', is not a value: \(error.message)")
                }
                if case .size = kind, case .oneSidedBox = spec.defaultValue {
                    throw problem("the default of \(parameter.name), '\(text)', is not a size WxH with both sides")
                }
            }
            parameters.append(spec)
        }
        return parameters
    }

    /// The value a default's canonical text stands for under `kind`. Printing loses three
    /// distinctions the parser cannot restore on its own: a named anchor prints as its name, and
    /// a set of one word as the word; a height alone (`x300`) reads as a word.
    static func defaultValue(_ parsed: ArgumentValue, for kind: ParameterSpec.Kind) -> ArgumentValue {
        switch (kind, parsed) {
        case (.anchor, .word(let word)): return UnitPoint.named.first { $0.name == word }.map { .point($0.point) } ?? parsed
        case (.choiceSet, .word(let word)): return .words([word])
        case (.box, .word(let word)): return PixelSize(heightOnlyWord: word).map(ArgumentValue.oneSidedBox) ?? parsed
        default: return parsed
        }
    }
}

extension ProcessorSchema.Kind {
    /// The binder's kind, or nil when a range's bounds are out of order (or not numbers).
    var parameterKind: ParameterSpec.Kind? {
        switch self {
        case .number(let min, let max):
            let range = (min ?? -.infinity, max ?? .infinity)
            guard range.0 <= range.1 else { return nil }
            return .number(range.0...range.1)
        case .positive(let max):
            guard !(max?.isNaN ?? false) else { return nil }
            return .positive(upTo: max ?? .infinity)
        case .integer(let min, let max):
            guard min <= max else { return nil }
            return .integer(min...max)
        case .size: return .size
        case .box: return .box
        case .color: return .color
        case .choice(let words): return .choice(words)
        case .choiceSet(let words): return .choiceSet(words)
        case .anchor: return .anchor
        case .point: return .point
        case .ratio: return .ratio
        case .text(let maxLength):
            guard maxLength >= 1 else { return nil }
            return .text(maxLength: maxLength)
        }
    }
}

/// Why a schema cannot describe a processor: a name the chain syntax cannot write, a range whose
/// bounds are out of order, a default that is not a value. The schema is then not used.
public struct ProcessorSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    public var processor: String
    public var message: String

    public init(processor: String, message: String) {
        self.processor = processor
        self.message = message
    }

    public var description: String { "the schema of '\(processor)': \(message)" }
}
