/// Arguments bound to a processor's parameters, every parameter present (defaults filled in)
/// except an optional one the chain left out (`ParameterSpec.isOptional`, `has(_:)`).
///
/// Accessors trap when asked for a parameter the spec does not declare or with the wrong
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

    /// Column of the processor's name: where an error about the call as a whole points.
    public var processorColumn: Int { column }

    /// True when `name` has a value: always for a parameter with a default or a required one,
    /// only when the chain gave it for an optional one.
    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The value of `name`, or nil for an optional parameter the chain left out.
    public func optionalValue(_ name: String) -> ArgumentValue? { values[name]?.value }

    public func number(_ name: String) -> Double {
        guard case .number(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a number") }
        return v
    }

    public func integer(_ name: String) -> Int { Int(number(name)) }

    public func size(_ name: String) -> PixelSize {
        guard case .size(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a size") }
        return v
    }

    /// A `box` parameter's value: both sides, or one with the free side 0 (`PixelSize.isOneSided`).
    public func box(_ name: String) -> PixelSize {
        switch value(name) {
        case .size(let v), .oneSidedBox(let v): return v
        default: preconditionFailure("\(processor).\(name) is not a box")
        }
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

    /// A `point` parameter's value (`focus: 0.3,0.7`), or nil when it was left out.
    public func point(_ name: String) -> UnitPoint? {
        switch optionalValue(name) {
        case nil: return nil
        case .pair(let v): return v
        default: preconditionFailure("\(processor).\(name) is not a point")
        }
    }

    /// A `ratio` parameter's value (`aspect: 16:9`), or nil when it was left out.
    public func ratio(_ name: String) -> AspectRatio? {
        switch optionalValue(name) {
        case nil: return nil
        case .ratio(let v): return v
        default: preconditionFailure("\(processor).\(name) is not a ratio")
        }
    }

    /// A `text` parameter's value (a watermark's source).
    public func text(_ name: String) -> String {
        guard case .text(let v) = value(name) else { preconditionFailure("\(processor).\(name) is not a text") }
        return v
    }

    /// An error for argument `name`: `blur: radius must be > 0 (got -3) at column 31`.
    public func invalid(_ name: String, _ message: String, suggestion: String? = nil) -> ChainError {
        ChainError(
            code: .invalidArgument, processor: processor, argument: name,
            column: values[name]?.column ?? column, message: "\(name) \(message)", suggestion: suggestion)
    }
}
