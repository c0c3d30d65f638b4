import DarkroomCore
import DarkroomSchema
import Testing

@testable import DarkroomChains

@Suite("Processor registry: chains of runnable processors")
struct ProcessorRegistryTests {
    let registry = ChainTestProcessors.registry

    @Test("Two spellings of the same chain have one canonical text, one identifier and one hashable identity")
    func spellingsAgree() throws {
        let a = try registry.chain(from: "shape(400x300, 20, corners: topRight+topLeft)|>plain")
        let b = try registry.chain(from: " shape( radius: 20 , size: 400x300, corners: topLeft+topRight+topLeft ) |> plain() ")
        #expect(a.canonicalText == b.canonicalText)
        #expect(a.identifier == b.identifier)
        #expect(a.hashableIdentifier == b.hashableIdentifier)
    }

    @Test("A different order is a different chain, and the identifier carries each processor's version")
    func orderAndVersion() throws {
        let a = try registry.chain(from: "shape(10x10, 1)|>plain")
        let b = try registry.chain(from: "plain|>shape(10x10, 1)")
        #expect(a.identifier != b.identifier)
        #expect(b.identifier.hasPrefix("plain.v1|>shape.v3(10x10, 1, "))
    }

    @Test("Registering a name twice is refused")
    func duplicateRegistration() {
        var registry = ChainTestProcessors.registry
        #expect(throws: RegistryError.duplicateName("plain")) {
            try registry.register(ChainTestProcessors.Plain.descriptor)
        }
    }

    @Test("Given the registry's specs without pixels, when chains are bound, then the text and the errors are the registry's")
    func validationOnlyAgrees() throws {
        let catalog = registry.validationOnly
        #expect(catalog.names == ["plain", "shape"])
        for text in [
            "shape(400x300, 20)", "plain|>shape(10x10, -3)", "shape(10x10, 1, corners: topRight)|>plain", "shap(1x1, 1)",
        ] {
            let expected = Result { () throws(ChainError) in try registry.chain(from: text).canonicalText }
            let actual = Result { () throws(ChainError) in try catalog.canonicalText(of: text) }
            #expect(actual == expected, "\(text)")
        }
    }

    @Test("A descriptor made from a schema cannot run: a processor registry refuses it and its factory throws")
    func validationOnlyCannotRun() throws {
        let descriptor = try ProcessorDescriptor(validationOnly: ProcessorSchema(ChainTestProcessors.Plain.descriptor))
        #expect(descriptor.isValidationOnly)
        #expect(!ChainTestProcessors.Plain.descriptor.isValidationOnly)
        var registry = ProcessorRegistry()
        #expect(throws: RegistryError.validationOnly("plain")) { try registry.register(descriptor) }
        #expect(throws: ProcessorSchemaError.self) { _ = try descriptor.make(ProcessorArguments(processor: "plain", column: 1, values: [:])) }
    }
}
