import DarkroomCore

/// Processors that exist only to exercise the parser and binder: every parameter kind, no pixels.
enum ChainTestProcessors {
    struct Shape: ImageProcessing, Hashable {
        var size: PixelSize
        var radius: Double
        var corners: [String]
        var background: RGBAColor
        var anchor: UnitPoint
        var mode: String
        var count: Int

        static let descriptor = ProcessorDescriptor(
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
        ) { args in
            let radius = args.number("radius")
            guard radius > 0 else { throw args.invalid("radius", "must be > 0 (got \(ArgumentValue.format(radius)))") }
            return Shape(
                size: args.size("size"), radius: radius, corners: args.words("corners"),
                background: args.color("background"), anchor: args.anchor("anchor"),
                mode: args.word("mode"), count: args.integer("count"))
        }

        var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "shape", version: 3,
                arguments: [
                    ("size", .size(size)), ("radius", .number(radius)), ("corners", .words(corners)),
                    ("background", .color(background)), ("anchor", .point(anchor)), ("mode", .word(mode)),
                    ("count", .number(Double(count))),
                ], positionalCount: 2)
        }

        func process(_ bitmap: Bitmap) throws -> Bitmap { bitmap }
    }

    struct Plain: ImageProcessing, Hashable {
        static let descriptor = ProcessorDescriptor(name: "plain", version: 1, summary: "no arguments", parameters: []) { _ in Plain() }
        var invocation: ProcessorInvocation { ProcessorInvocation(name: "plain", version: 1) }
        func process(_ bitmap: Bitmap) throws -> Bitmap { bitmap }
    }

    static var registry: ProcessorRegistry {
        var registry = ProcessorRegistry()
        try! registry.register(Shape.descriptor)
        try! registry.register(Plain.descriptor)
        return registry
    }
}
