import CDarkroomPlugin

/// One argument of a call, named after its parameter, with typed accessors.
///
/// ```swift
/// let amount = try arguments["amount"].number
/// let size = try arguments[0].integer
/// ```
///
/// An accessor of the wrong kind throws `PluginArgumentError`, which fails the job with its
/// message: a mistake in the plugin shows up as a clear error rather than a crash of the host.
public struct PluginArgument: Hashable, Sendable {
    /// A value of one of the parameter kinds.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        case number(Double)
        case integer(Int)
        case size(PluginSize)
        case color(PluginColor)
        case choice(String)

        /// As chain text writes it: `0.5`, `8`, `400x300`, `#FF8000FF`, `fill`.
        public var description: String {
            switch self {
            case .number(let number): return ChainText.number(number)
            case .integer(let integer): return String(integer)
            case .size(let size): return size.description
            case .color(let color): return color.description
            case .choice(let word): return word
            }
        }
    }

    /// The name of the parameter it is the value of.
    public var name: String
    public var value: Value

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    /// A NUMBER argument, or an INTEGER one as a `Double`.
    public var number: Double {
        get throws(PluginArgumentError) {
            switch value {
            case .number(let number): return number
            case .integer(let integer): return Double(integer)
            default: throw mismatch("a number")
            }
        }
    }

    /// An INTEGER argument, or a whole NUMBER one.
    public var integer: Int {
        get throws(PluginArgumentError) {
            switch value {
            case .integer(let integer): return integer
            case .number(let number) where number == number.rounded() && abs(number) < 1e18: return Int(number)
            default: throw mismatch("a whole number")
            }
        }
    }

    /// A SIZE argument.
    public var size: PluginSize {
        get throws(PluginArgumentError) {
            guard case .size(let size) = value else { throw mismatch("a size") }
            return size
        }
    }

    /// A COLOR argument.
    public var color: PluginColor {
        get throws(PluginArgumentError) {
            guard case .color(let color) = value else { throw mismatch("a colour") }
            return color
        }
    }

    /// A CHOICE argument: one of the parameter's words.
    public var choice: String {
        get throws(PluginArgumentError) {
            guard case .choice(let word) = value else { throw mismatch("a choice") }
            return word
        }
    }

    private func mismatch(_ wanted: String) -> PluginArgumentError {
        PluginArgumentError(message: "argument '\(name)' is \(value), not \(wanted)")
    }
}

/// The arguments of one call, one per declared parameter in declared order (the host fills in
/// defaults), by position or by name.
public struct PluginArguments: RandomAccessCollection, Sendable {
    private let arguments: [PluginArgument]

    public init(_ arguments: [PluginArgument]) {
        self.arguments = arguments
    }

    public var startIndex: Int { arguments.startIndex }
    public var endIndex: Int { arguments.endIndex }
    public subscript(position: Int) -> PluginArgument { arguments[position] }

    /// The argument of the parameter `name`.
    public subscript(name: String) -> PluginArgument {
        get throws(PluginArgumentError) {
            guard let argument = arguments.first(where: { $0.name == name }) else {
                throw PluginArgumentError(message: "no parameter named '\(name)' (declared: \(arguments.map(\.name).joined(separator: ", ")))")
            }
            return argument
        }
    }

    /// The host's `darkroom_value`s read against the declared parameters. The declaration, not
    /// the value, says whether a number is an INTEGER.
    init(_ values: UnsafePointer<darkroom_value>?, count: UInt32, parameters: [PluginParameter]) throws(PluginArgumentError) {
        guard Int(count) == parameters.count, count == 0 || values != nil else {
            throw PluginArgumentError(message: "the host passed \(count) argument(s) for \(parameters.count) parameter(s)")
        }
        var arguments: [PluginArgument] = []
        arguments.reserveCapacity(parameters.count)
        for (index, parameter) in parameters.enumerated() {
            arguments.append(PluginArgument(name: parameter.name, value: try Self.read(values![index], as: parameter)))
        }
        self.arguments = arguments
    }

    private static func read(_ value: darkroom_value, as parameter: PluginParameter) throws(PluginArgumentError) -> PluginArgument.Value {
        let isNumber = value.kind == DARKROOM_KIND_NUMBER || value.kind == DARKROOM_KIND_INTEGER
        switch parameter.kind {
        case .number where isNumber:
            return .number(value.number)
        case .integer where isNumber && value.number == value.number.rounded() && abs(value.number) < 1e18:
            return .integer(Int(value.number))
        case .size where value.kind == DARKROOM_KIND_SIZE:
            return .size(PluginSize(width: Int(value.width), height: Int(value.height)))
        case .color where value.kind == DARKROOM_KIND_COLOR:
            return .color(PluginColor(red: value.rgba.0, green: value.rgba.1, blue: value.rgba.2, alpha: value.rgba.3))
        case .choice where value.kind == DARKROOM_KIND_CHOICE && value.word != nil:
            return .choice(String(cString: value.word))
        default:
            throw PluginArgumentError(message: "argument '\(parameter.name)': the host passed a value of kind \(value.kind) for a \(parameter.kind) parameter")
        }
    }
}

/// An argument was asked for by a name or kind its processor does not declare. Permanent.
public struct PluginArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
