/// Matches one parsed call's arguments to a spec's parameters: positional ones in order,
/// named ones by name; fills defaults; checks kinds and ranges; normalises values to their
/// canonical form (integers, anchors as points, sets in declared order).
struct ArgumentBinder {
    let spec: ProcessorSpec
    let call: ParsedCall

    func bind() throws(ChainError) -> ProcessorArguments {
        let parameters = spec.parameters
        var bound: [String: (value: ArgumentValue, column: Int)] = [:]

        for (index, argument) in call.arguments.enumerated() {
            let parameter: ParameterSpec
            if let label = argument.label {
                guard let match = parameters.first(where: { $0.name == label }) else {
                    throw ChainError(
                        code: .unknownArgument, processor: spec.name, argument: label,
                        column: argument.labelColumn,
                        message: "unknown argument '\(label)'",
                        suggestion: NameSuggester.nearest(to: label, among: parameters.map(\.name)))
                }
                parameter = match
            } else {
                guard index < parameters.count else {
                    throw ChainError(
                        code: .tooManyArguments, processor: spec.name, column: argument.column,
                        message: "takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s") (\(spec.signature)), got more")
                }
                parameter = parameters[index]
            }
            guard bound[parameter.name] == nil else {
                throw ChainError(
                    code: .duplicateArgument, processor: spec.name, argument: parameter.name,
                    column: argument.labelColumn, message: "\(parameter.name) is given twice")
            }
            let value = try normalise(argument.value, for: parameter, column: argument.column, parts: argument.partColumns)
            bound[parameter.name] = (value, argument.column)
        }

        for parameter in parameters where bound[parameter.name] == nil {
            guard let value = parameter.defaultValue else {
                if parameter.isOptional { continue }  // left out: absent, not defaulted
                throw ChainError(
                    code: .missingArgument, processor: spec.name, argument: parameter.name,
                    column: call.closingColumn,
                    message: "missing \(parameter.name) (\(parameter.expectation))")
            }
            bound[parameter.name] = (value, call.column)
        }
        return ProcessorArguments(processor: spec.name, column: call.column, values: bound)
    }

    /// `value` checked against `parameter` and put in canonical form; `parts` are the columns of a
    /// two-part value's parts (`ParsedArgument.partColumns`), for errors about one of them.
    func normalise(_ value: ArgumentValue, for parameter: ParameterSpec, column: Int, parts: [Int] = []) throws(ChainError) -> ArgumentValue {
        func wrong(_ detail: String? = nil) -> ChainError {
            ChainError(
                code: .invalidArgument, processor: spec.name, argument: parameter.name, column: column,
                message: detail.map { "\(parameter.name) \($0)" }
                    ?? "\(parameter.name) must be \(parameter.expectation) (got \(value))")
        }
        switch (parameter.kind, value) {
        case (.number(let range), .number(let v)):
            guard v.isFinite, range.contains(v) else {
                throw wrong("must be in \(ArgumentValue.format(range.lowerBound))…\(ArgumentValue.format(range.upperBound)) (got \(ArgumentValue.format(v)))")
            }
            return value
        case (.positive(let max), .number(let v)):
            guard v.isFinite, v > 0 else { throw wrong("must be > 0 (got \(ArgumentValue.format(v)))") }
            guard v <= max else { throw wrong("must be ≤ \(ArgumentValue.format(max)) (got \(ArgumentValue.format(v)))") }
            return value
        case (.integer(let range), .number(let v)):
            guard v == v.rounded(), v.isFinite else { throw wrong("must be a whole number (got \(ArgumentValue.format(v)))") }
            guard v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
                throw wrong("must be in \(range.lowerBound)…\(range.upperBound) (got \(ArgumentValue.format(v)))")
            }
            return value
        case (.size, .size(let size)), (.box, .size(let size)):
            guard size.width >= 1, size.height >= 1, size.width <= PixelSize.maximumDimension, size.height <= PixelSize.maximumDimension else {
                throw wrong("must have sides in 1…\(PixelSize.maximumDimension) (got \(size))")
            }
            return value
        case (.size, .oneSidedBox(let box)):
            throw wrong("must be a size WxH with both sides (got \(box.boxText))")
        case (.box, .oneSidedBox(let box)):
            return try oneSided(box, written: box.boxText, wrong: wrong)
        case (.box, .word(let word)):
            guard let box = PixelSize(heightOnlyWord: word) else { throw wrong() }
            return try oneSided(box, written: word.lowercased(), wrong: wrong)
        case (.color, .color):
            return value
        case (.choice(let options), .word(let word)):
            guard options.contains(word) else {
                let suggestion = NameSuggester.nearest(to: word, among: options)
                throw ChainError(
                    code: .invalidArgument, processor: spec.name, argument: parameter.name, column: column,
                    message: "\(parameter.name) must be \(parameter.expectation) (got '\(word)')", suggestion: suggestion)
            }
            return value
        case (.choiceSet(let options), .word(let word)):
            return try normaliseSet([word], options: options, parameter: parameter, column: column)
        case (.choiceSet(let options), .words(let words)):
            return try normaliseSet(words, options: options, parameter: parameter, column: column)
        case (.anchor, .word(let word)):
            guard let named = UnitPoint.named.first(where: { $0.name == word }) else {
                throw ChainError(
                    code: .invalidArgument, processor: spec.name, argument: parameter.name, column: column,
                    message: "\(parameter.name) must be \(parameter.expectation) (got '\(word)')",
                    suggestion: NameSuggester.nearest(to: word, among: UnitPoint.named.map(\.name)))
            }
            return .point(named.point)
        case (.anchor, .point(let point)):
            guard (0...1).contains(point.x), (0...1).contains(point.y) else {
                throw wrong("must be a point with coordinates in 0…1 (got \(value))")
            }
            return value
        case (.point, .pair(let point)), (.point, .point(let point)):
            return try normalisePoint(point, parameter: parameter, column: column, parts: parts)
        case (.ratio, .ratio(let ratio)):
            return try normaliseRatio(ratio, parameter: parameter, column: column, parts: parts)
        case (_, .pair):
            // Before pairs existed this text was two arguments, the second positional after a
            // named one: the same error, at the same column.
            throw ChainError(
                code: .syntax, processor: spec.name, column: parts.last ?? column,
                message: "positional argument after a named one; name it or move it before the named arguments")
        case (.text(let maxLength), .text(let text)):
            guard !text.isEmpty, text.unicodeScalars.count <= maxLength else {
                throw wrong("must be 1…\(maxLength) characters long (got \(text.unicodeScalars.count))")
            }
            return value
        case (_, .word) where value == parameter.defaultValue:
            // A default that is a word standing for "decided from the image" (trim's `color:
            // corner`) must read back from the canonical text that prints it.
            return value
        default:
            throw wrong()
        }
    }

    /// A width-only or height-only box whose given side is in 1…65535; `written` is how the
    /// message shows it (`0x` and `x0` are both 0×0).
    private func oneSided(_ box: PixelSize, written: String, wrong: (String?) -> ChainError) throws(ChainError) -> ArgumentValue {
        let side = max(box.width, box.height)
        guard box.isOneSided, side <= PixelSize.maximumDimension else {
            throw wrong("must have sides in 1…\(PixelSize.maximumDimension) (got \(written))")
        }
        return .oneSidedBox(box)
    }

    private func normaliseSet(_ words: [String], options: [String], parameter: ParameterSpec, column: Int) throws(ChainError) -> ArgumentValue {
        if words == ["all"] { return .words(options) }
        for word in words where !options.contains(word) {
            throw ChainError(
                code: .invalidArgument, processor: spec.name, argument: parameter.name, column: column,
                message: "\(parameter.name) must be \(parameter.expectation) (got '\(word)')",
                suggestion: NameSuggester.nearest(to: word, among: options))
        }
        // Declared order, no repeats: `topRight+topLeft` and `topLeft+topRight+topLeft` are one set.
        return .words(options.filter { words.contains($0) })
    }
}
