extension ChainParser {
    /// Reads one argument value written in chain syntax (`2.5`, `400x300`, `#FF000080`, `fill`,
    /// `topLeft+bottomRight`, `(0.25, 0.75)`): how a processor described outside Swift (a plugin's
    /// C schema, a worker's advertised schema) gives its defaults.
    public static func parseValue(_ text: String) throws(ChainError) -> ArgumentValue {
        // Parsed as the sole argument of a call, so the value grammar stays in one place. The
        // wrapper's 2 leading characters are taken off the column.
        let parsed: ParsedChain
        do {
            parsed = try parse("v(" + text + ")")
        } catch {
            var shifted = error
            shifted.column = max(1, shifted.column - 2)
            throw shifted
        }
        guard parsed.calls.count == 1, let argument = parsed.calls[0].arguments.first, parsed.calls[0].arguments.count == 1,
            argument.label == nil
        else {
            throw ChainError(code: .syntax, column: 1, message: "'\(text)' is not a single value")
        }
        return argument.value
    }
}

extension ProcessorDescriptor {
    /// The parameters with every default checked against its own kind and range, as if it had
    /// been written in a chain, and put in canonical form (a whole number for an integer, a set in
    /// declared order). Built-in processors' defaults are right by construction; a descriptor made
    /// from outside (a plugin) is checked with this before it is registered.
    public func checkedParameters() throws(ChainError) -> [ParameterSpec] {
        let binder = ArgumentBinder(
            descriptor: self, call: ParsedCall(name: name, column: 1, arguments: [], closingColumn: 1))
        var checked = parameters
        for index in checked.indices {
            guard let value = checked[index].defaultValue else { continue }
            checked[index].defaultValue = try binder.normalise(value, for: checked[index], column: 1)
        }
        return checked
    }
}
