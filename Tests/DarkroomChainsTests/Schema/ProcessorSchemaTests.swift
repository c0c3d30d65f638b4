import DarkroomChains
import DarkroomSchema
import Foundation
import Testing

@Suite("Processor schemas: a spec as a record, and back into a spec")
struct ProcessorSchemaTests {
    /// `spec` → schema → JSON → schema.
    static func throughJSON(_ spec: ProcessorSpec) throws -> ProcessorSchema {
        let data = try JSONEncoder().encode(ProcessorSchema(spec))
        return try JSONDecoder().decode(ProcessorSchema.self, from: data)
    }

    @Test("Given a spec with every parameter kind, when its schema goes through JSON, then it comes back equal")
    func jsonRoundTrip() throws {
        let schema = ProcessorSchema(ChainTestSpecs.shape)
        #expect(try Self.throughJSON(ChainTestSpecs.shape) == schema)
        #expect(schema.parameters.map(\.defaultText) == [nil, nil, "topLeft+topRight+bottomLeft+bottomRight", "#00000000", "center", "fit", "1"])
        #expect(schema.parameters[1].kind == .number(min: -1000, max: 1000))
        #expect(schema.parameters[6].kind == .integer(min: 1, max: 10))
    }

    @Test("Given the schema's spec, when chains are bound, then they print the canonical text the original prints")
    func sameCanonicalText() throws {
        let registry = try ValidationOnlyRegistry([Self.throughJSON(ChainTestSpecs.shape)])
        for text in [
            "shape(400x300, 20)", "shape(10x10, 1, corners: topRight+topLeft, anchor: (0.25, 1), count: 3)",
            "shape(radius: 2.5, size: 5x5, corners: all, mode: stretch, background: #FF0000)", "shape(1x1, 1, anchor: bottomRight)",
        ] {
            #expect(try registry.canonicalText(of: text) == ChainTestSpecs.catalog.canonicalText(of: text))
        }
    }

    @Test("Given defaults printed as text, when read back, then an anchor is a point and a one-word set a set, as the original's")
    func defaultsReadBackAsTheirKind() throws {
        let original = ProcessorSpec(
            name: "pick", version: 1, summary: "",
            parameters: [
                ParameterSpec("corners", .choiceSet(["a", "b"]), default: .words(["b"])),
                ParameterSpec("anchor", .anchor, default: .point(UnitPoint(x: 0, y: 1))),
                ParameterSpec("at", .anchor, default: .point(UnitPoint(x: 0.25, y: 0.75))),
            ])
        let copy = try ProcessorSpec(schema: Self.throughJSON(original))
        #expect(copy.parameters.map(\.defaultValue) == original.parameters.map(\.defaultValue))
        #expect(copy.signature == original.signature)
    }

    @Test("Given a bad argument, when bound against the schema, then the error is the original's: message, column and suggestion")
    func sameErrors() throws {
        let registry = try ValidationOnlyRegistry([Self.throughJSON(ChainTestSpecs.shape)])
        for text in [
            "shape(10x10, 5000)", "shape(10x10)", "shape(10x10, 1, corners: topLeff)", "shape(10x10, 1, anchr: center)",
            "shape(10x10, 1, anchor: centre)", "shape(10x10, 1, mode: fil)", "shape(10x10, 1, count: 1.5)", "shape(0x10, 1)",
            "shape(10x10, 1, #FF0000, center, fit, 2, 3, 4)", "shape(10x10, 1, radius: 2)", "shap(10x10, 1)",
        ] {
            let expected = #expect(throws: ChainError.self) { try ChainTestSpecs.catalog.canonicalText(of: text) }
            let actual = #expect(throws: ChainError.self) { try registry.canonicalText(of: text) }
            #expect(actual == expected, "\(text)")
        }
    }

    @Test("Checks a spec makes beyond its parameters' kinds are not in the schema: the worker makes them")
    func specChecksStayWithTheWorker() throws {
        let registry = try ValidationOnlyRegistry([ProcessorSchema(ChainTestSpecs.shape)])
        #expect(throws: ChainError.self) { try ChainTestSpecs.catalog.canonicalText(of: "shape(10x10, -1)") }
        #expect(try registry.canonicalText(of: "shape(10x10, -1)").hasPrefix("shape(10x10, -1, "))
    }

    @Test("Given infinite bounds, when described, then the bounds are absent from the JSON and come back infinite")
    func infiniteBoundsAreAbsent() throws {
        let open = ProcessorSpec(
            name: "open", version: 1, summary: "",
            parameters: [ParameterSpec("x", .number(0...Double.infinity)), ParameterSpec("y", .positive(upTo: .infinity))])
        let json = String(decoding: try JSONEncoder().encode(ProcessorSchema(open)), as: UTF8.self)
        #expect(!json.contains("\"max\""))
        let copy = try ProcessorSpec(schema: Self.throughJSON(open))
        #expect(copy.parameters.map(\.expectation) == open.parameters.map(\.expectation))
    }

    @Test(
        "A schema that cannot describe a processor is refused with the reason",
        arguments: [
            ProcessorSchema(name: "9lives", version: 1, summary: "", parameters: []),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "x", kind: .number(min: 2, max: 1))]),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "x", kind: .integer(min: 2, max: 1))]),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "x", kind: .size, defaultText: "10x")]),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "x", kind: .size, defaultText: "10x10 20")]),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "x", kind: .size), .init(name: "x", kind: .color)]),
            ProcessorSchema(name: "p", version: 1, summary: "", parameters: [.init(name: "a b", kind: .size)]),
            ProcessorSchema(name: "p", version: 1, summary: "", module: .init(name: "Acme", version: "1"), parameters: []),
        ])
    func badSchemasAreRefused(schema: ProcessorSchema) {
        #expect(throws: ProcessorSchemaError.self) { try ProcessorSpec(schema: schema) }
    }

    @Test("Given a list with a newer-format schema, an unknown kind and non-objects, when read, then only those are skipped")
    func unreadableSchemasAreSkipped() throws {
        let good = try JSONEncoder().encode(ProcessorSchema(ChainTestSpecs.plain))
        let json = """
            [\(String(decoding: good, as: UTF8.self)), {"schema": 2, "name": "future", "version": 1},
             {"schema": 1, "name": "odd", "version": 1, "parameters": [{"name": "x", "kind": "gradient"}]}, null, 7, "text"]
            """
        let read = try JSONDecoder().decode(ReadableProcessorSchemas.self, from: Data(json.utf8))
        #expect(read.schemas.map(\.name) == ["plain"])
        #expect(read.skipped == 5)
    }

    @Test("A value printed canonically reads back as itself", arguments: ["center", "#00000000", "a+b", "(0.25, 0.75)", "-0.5", "400x300", "fit"])
    func valuesReadBack(text: String) throws {
        #expect(try ChainParser.value(text).description == text)
        #expect(throws: ChainError.self) { try ChainParser.value(text + " x") }
    }
}
