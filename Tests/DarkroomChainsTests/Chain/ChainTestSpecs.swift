import DarkroomChains

/// Processors that exist only to exercise the parser and binder: every parameter kind, and a
/// check beyond the kinds (`shape`'s radius must be > 0). Specs only: nothing here has pixels.
enum ChainTestSpecs {
    static let shape = ProcessorSpec(
        name: "shape", version: 3, summary: "test processor",
        parameters: [
            ParameterSpec("size", .size),
            ParameterSpec("radius", .number(-1000...1000)),
            ParameterSpec(
                "corners", .choiceSet(["topLeft", "topRight", "bottomLeft", "bottomRight"]),
                default: .words(["topLeft", "topRight", "bottomLeft", "bottomRight"])),
            ParameterSpec("background", .color, default: .color(.clear)),
            ParameterSpec("anchor", .anchor, default: .point(.center)),
            ParameterSpec("mode", .choice(["fit", "fill", "stretch"]), default: .word("fit")),
            ParameterSpec("count", .integer(1...10), default: .number(1)),
        ]
    ) { args throws(ChainError) in
        let radius = args.number("radius")
        guard radius > 0 else { throw args.invalid("radius", "must be > 0 (got \(ArgumentValue.format(radius)))") }
    }

    static let plain = ProcessorSpec(name: "plain", version: 1, summary: "no arguments", parameters: [])

    static var catalog: ValidationOnlyRegistry { ValidationOnlyRegistry(specs: [shape, plain]) }

    /// The versioned identifier of `text` bound against `catalog`: `plain.v1|>shape.v3(…)`.
    static func identifier(_ text: String) throws(ChainError) -> String {
        var pieces: [String] = []
        for call in try ChainParser.parse(text).calls {
            pieces.append(try catalog.invocation(of: call).versionedText)
        }
        return pieces.joined(separator: "|>")
    }
}
