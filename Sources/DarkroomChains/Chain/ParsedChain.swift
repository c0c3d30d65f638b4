/// The syntax tree of a chain text, before names are resolved.
public struct ParsedChain: Sendable, Equatable {
    public var calls: [ParsedCall]
}

/// One `name(args)` in a chain.
public struct ParsedCall: Sendable, Equatable {
    public var name: String
    /// 1-based column of the name.
    public var column: Int
    public var arguments: [ParsedArgument]
    /// Column just after the call (its `)` or the end of its name), for "missing argument".
    public var closingColumn: Int
}

/// One argument: optional `label:` then a value.
public struct ParsedArgument: Sendable, Equatable {
    public var label: String?
    /// Column of the label, or of the value when there is none.
    public var labelColumn: Int
    public var value: ArgumentValue
    /// Column of the value.
    public var column: Int
    /// Columns of the parts of a two-part value (a pair's `x` and `y`, a ratio's `W` and `H`), so
    /// an error can point at the bad one; empty for other values.
    public var partColumns: [Int] = []
}
