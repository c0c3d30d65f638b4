import DarkroomChains
import DarkroomCore

/// Processors that exist only to exercise `ProcessorRegistry` and `ProcessorChain`; no pixel work.
enum ChainTestProcessors {
    /// A processor with a required size and radius, an optional set of corners, and a check
    /// beyond the kinds (the radius must be > 0): the check is the spec's, so
    /// `ProcessorRegistry.validationOnly` makes it too. The binder's every kind is exercised by
    /// `DarkroomChainsTests`.
    struct Shape: ImageProcessing, Hashable {
        var size: PixelSize
        var radius: Double
        var corners: [String]

        static let spec = ProcessorSpec(
            name: "shape", version: 3, summary: "test processor",
            parameters: [
                ParameterSpec("size", .size), ParameterSpec("radius", .number(-1000...1000)),
                ParameterSpec("corners", .choiceSet(["topLeft", "topRight"]), default: .words(["topLeft", "topRight"])),
            ]
        ) { args throws(ChainError) in
            guard args.number("radius") > 0 else { throw args.invalid("radius", "must be > 0") }
        }

        static let descriptor = ProcessorDescriptor(spec) { args in
            Shape(size: args.size("size"), radius: args.number("radius"), corners: args.words("corners"))
        }

        var invocation: ProcessorInvocation {
            ProcessorInvocation(
                name: "shape", version: 3,
                arguments: [("size", .size(size)), ("radius", .number(radius)), ("corners", .words(corners))], positionalCount: 2)
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
