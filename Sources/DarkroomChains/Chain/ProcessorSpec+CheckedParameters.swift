extension ProcessorSpec {
    /// The parameters with every default checked against its own kind and range, as if it had
    /// been written in a chain, and put in canonical form (a whole number for an integer, a set in
    /// declared order). Built-in processors' defaults are right by construction; a spec made
    /// from outside (a plugin) is checked with this before it is registered.
    public func checkedParameters() throws(ChainError) -> [ParameterSpec] {
        let binder = ArgumentBinder(
            spec: self, call: ParsedCall(name: name, column: 1, arguments: [], closingColumn: 1))
        var checked = parameters
        for index in checked.indices {
            guard let value = checked[index].defaultValue else { continue }
            checked[index].defaultValue = try binder.normalise(value, for: checked[index], column: 1)
        }
        return checked
    }
}
