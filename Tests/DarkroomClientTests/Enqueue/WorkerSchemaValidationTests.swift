import DarkroomChains
import DarkroomQueue
import DarkroomSchema
import Testing

@testable import DarkroomClient

/// A processor this build lacks but live workers describe by a schema is checked as if it were
/// built in: stand-ins for plugins are the standard processors, advertised by workers and left out
/// of the client's registry, so the two can be compared call for call.
@Suite("Enqueue validation against the schemas live workers advertise")
struct WorkerSchemaValidationTests {
    static let builtIn = StandardProcessorSpecs.catalog

    /// The standard processors without `missing`: what a client lacking a plugin knows.
    static func registry(without missing: Set<String>) throws -> ValidationOnlyRegistry {
        ValidationOnlyRegistry(specs: builtIn.all.filter { !missing.contains($0.name) })
    }

    static func worker(_ name: String, schemas: [ProcessorSchema], offers extra: [String: Int] = [:]) -> WorkerInfo {
        let processors = Dictionary(schemas.map { ($0.name, $0.version) }, uniquingKeysWith: { first, _ in first }).merging(extra) { a, _ in a }
        return WorkerInfo(name: name, host: "h", pid: 1, concurrency: 2, processors: processors, schemas: schemas, version: "0.2.0", startedAt: .now())
    }

    /// A validator lacking `missing`, with one live worker advertising every standard schema.
    static func validator(without missing: Set<String>) throws -> ChainValidator {
        let fleet = [worker("w1", schemas: builtIn.all.map(ProcessorSchema.init))]
        return ChainValidator(registry: try registry(without: missing)) { fleet }
    }

    static func sepia(version: Int, tone: String, extra: [ProcessorSchema.Parameter] = []) -> ProcessorSchema {
        ProcessorSchema(
            name: "sepia", version: version, summary: "warm tones", module: .init(name: "acme", version: "1.\(version).0"),
            parameters: [
                .init(name: "amount", kind: .number(min: 0, max: 1)), .init(name: "tone", kind: .choice(["warm", "cold"]), defaultText: tone),
            ] + extra)
    }

    @Test(
        "Given a worker-described processor with a bad argument, when validated, then the error is the built-in one: message, column and suggestion",
        arguments: [
            "downsample(10x10) |> roundCorner(20, corners: topLef)", "blur(1)|>roundCorner(-2)", "roundCorner(2, backgrond: #FFFFFF)",
            "roundCorner", "roundCorner(1, all, #FF0000, 4) |> blur(2)", "roundCorner(1, corners: all, corners: all)",
        ])
    func badArgumentsMatchBuiltIns(text: String) async throws {
        var validator = try Self.validator(without: ["roundCorner"])
        let builtInError = #expect(throws: ChainError.self) { try Self.builtIn.canonicalText(of: text) }
        let error = await #expect(throws: ChainError.self) { _ = try await validator.canonicalize(text) }
        #expect(error == builtInError)
    }

    @Test("Given a worker-described processor, when validated, then defaults are filled in and the text is the one a worker prints")
    func defaultsAreFilledIn() async throws {
        var validator = try Self.validator(without: ["roundCorner", "resize"])
        let text = " downsample( 400x400 ) |> roundCorner(radius: 20, corners: topRight+topLeft) |> resize(10x10, anchor: (0, 1))"
        #expect(try await validator.canonicalize(text) == Self.builtIn.canonicalText(of: text))
        #expect(
            try await validator.canonicalize("roundCorner(20)")
                == "roundCorner(20, corners: topLeft+topRight+bottomLeft+bottomRight, background: #00000000)")
        #expect(validator.notes.count == 2)
        #expect(validator.notes.allSatisfy { $0.hasSuffix("its arguments were checked against their schema") })
    }

    @Test(
        "Given workers advertising different versions, when validated, then the highest version's schema is used, first worker by name, and the note says whose"
    )
    func highestVersionWins() async throws {
        let v2 = Self.sepia(version: 2, tone: "cold", extra: [.init(name: "grain", kind: .integer(min: 0, max: 9), defaultText: "3")])
        let fleet = [
            Self.worker("w0", schemas: [], offers: ["sepia": 1]), Self.worker("w1", schemas: [Self.sepia(version: 1, tone: "warm")]),
            Self.worker("w3", schemas: [v2]), Self.worker("w2", schemas: [v2]),
        ]
        var validator = ChainValidator(registry: Self.builtIn) { fleet }
        #expect(try await validator.canonicalize("sepia(0.5)|>blur(1)") == "sepia(0.5, tone: cold, grain: 3)|>blur(1)")
        let note = try #require(validator.notes.first)
        #expect(note.contains("(w0 v1 without a schema, w1 v1, w2 v2, …)"))
        #expect(note.hasSuffix("they differ, so its arguments were checked against the schema of w2 (v2)"))
        let error = await #expect(throws: ChainError.self) { _ = try await validator.canonicalize("sepia(0.5, grian: 1)") }
        #expect(error?.code == .unknownArgument)
        #expect(error?.suggestion == "grain")
        #expect(error?.column == 12)
    }

    @Test("Given only workers without schemas (older heartbeats), when validated, then the offered processor is kept as written and the worker checks it")
    func olderHeartbeatsKeepTodaysBehaviour() async throws {
        var validator = ChainValidator(registry: Self.builtIn) { [Self.worker("old", schemas: [], offers: ["sepia": 1])] }
        #expect(try await validator.canonicalize("sepia( -5 , bogus: 1 )") == "sepia(-5, bogus: 1)")
        #expect(validator.notes.first?.hasSuffix("accepted because live workers offer it (old v1); its arguments are checked by the worker") == true)
    }

    @Test("Given a schema that cannot describe a processor, when validated, then the next usable one is used, or the call is kept as written")
    func unusableSchemaIsPassedOver() async throws {
        let broken = ProcessorSchema(
            name: "sepia", version: 3, summary: "", parameters: [.init(name: "amount", kind: .number(min: 0, max: 1), defaultText: "lots of")])
        var fallback = ChainValidator(registry: Self.builtIn) {
            [Self.worker("w1", schemas: [broken]), Self.worker("w2", schemas: [Self.sepia(version: 1, tone: "warm")])]
        }
        #expect(try await fallback.canonicalize("sepia(1)") == "sepia(1, tone: warm)")
        var asWritten = ChainValidator(registry: Self.builtIn) { [Self.worker("w1", schemas: [broken])] }
        #expect(try await asWritten.canonicalize("sepia") == "sepia")
    }

    @Test("Given an unknown processor, when validated, then the suggestion may be a name only workers offer")
    func suggestionsIncludeOfferedNames() async throws {
        var validator = ChainValidator(registry: Self.builtIn) { [Self.worker("w1", schemas: [Self.sepia(version: 1, tone: "warm")])] }
        let error = await #expect(throws: ChainError.self) { _ = try await validator.canonicalize("blur(1)|>sepai(1)") }
        #expect(error?.code == .unknownProcessor)
        #expect(error?.column == 10)
        #expect(error?.suggestion == "sepia")
    }
}
