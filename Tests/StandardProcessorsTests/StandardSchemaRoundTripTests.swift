import DarkroomChains
import DarkroomCore
import DarkroomSchema
import DarkroomStandardProcessors
import Foundation
import Testing

/// Every standard processor's descriptor → schema → JSON → schema → validation-only descriptor
/// must bind chains as the descriptor itself does: the same canonical text, the same errors.
@Suite("The standard processors' schemas bind chains exactly as the processors do")
struct StandardSchemaRoundTripTests {
    static func throughJSON(_ descriptor: ProcessorDescriptor) throws -> ProcessorSchema {
        try JSONDecoder().decode(ProcessorSchema.self, from: JSONEncoder().encode(ProcessorSchema(descriptor)))
    }

    /// What binding `text` gives: the canonical text or the error.
    static func outcome(_ bind: () throws(ChainError) -> String) -> String {
        do { return try bind() } catch { return "error \(error.code.rawValue) column \(error.column): \(error)" }
    }

    @Test("Given each standard descriptor, when its schema goes through JSON, then it comes back equal")
    func schemasSurviveJSON() throws {
        for descriptor in StandardProcessors.descriptors {
            #expect(try Self.throughJSON(descriptor) == ProcessorSchema(descriptor), "\(descriptor.name)")
        }
    }

    @Test("Given good and bad chains for every parameter of every standard processor, when bound against the schemas, then the results are the processors' own")
    func sameBindings() throws {
        let original = StandardProcessors.registry
        let schemas = try ValidationOnlyRegistry(StandardProcessors.descriptors.map(Self.throughJSON))
        // A schema carries no `check` (the worker makes it): a chain the specs bind only without
        // their checks (extend with both a size and an aspect, resize with focus and fit) is
        // left out, as the kinds-only corpus cannot know which combinations a check refuses.
        let unchecked = ValidationOnlyRegistry(
            specs: StandardProcessorSpecs.all.map { spec in
                var spec = spec
                spec.check = nil
                return spec
            })
        let corpora = StandardProcessors.descriptors.map(SchemaCorpus.init)
        let good = corpora.flatMap(\.good)
        let bad = corpora.flatMap(\.bad)
        // The same calls later in a longer chain: the columns must follow.
        let longer = zip(good, bad).map { "downsample(8x8) |> \($0)|>  \($1)" }
        for text in good + bad + longer {
            let expected = Self.outcome { () throws(ChainError) in try original.chain(from: text).canonicalText }
            guard Self.outcome({ () throws(ChainError) in try unchecked.canonicalText(of: text) }) == expected else { continue }
            #expect(Self.outcome { () throws(ChainError) in try schemas.canonicalText(of: text) } == expected, "\(text)")
            #expect(expected.hasPrefix("error ") == !good.contains(text), "\(text) → \(expected)")
        }
    }
}

/// Chains for one descriptor, made from its parameters: good ones (positional, named, out of
/// order, defaults left out) and bad ones (each parameter's wrong kind, out of range, typo'd
/// choice or label, given twice; a missing and a surplus argument; a typo'd processor name).
struct SchemaCorpus {
    var good: [String] = []
    var bad: [String] = []

    init(_ descriptor: ProcessorDescriptor) {
        let name = descriptor.name
        let parameters = descriptor.parameters
        let required = parameters.filter(\.isRequired)
        func call(_ arguments: [String]) -> String { arguments.isEmpty ? name : "\(name)(\(arguments.joined(separator: ", ")))" }
        let positional = parameters.map { Self.sample($0.kind) }
        good.append(call(Array(positional.prefix(required.count))))
        good.append(call(positional))
        good.append(call(zip(parameters, positional).reversed().map { "\($0.name): \($1)" }))
        for (index, parameter) in parameters.enumerated() {
            guard let other = Self.alternative(parameter.kind) else { continue }
            var arguments = positional
            arguments[index] = other
            good.append(call(arguments))
        }
        bad.append("\(name.dropLast())(\(positional.joined(separator: ",")))")
        bad.append(call(positional + ["1"]))
        if !required.isEmpty { bad.append("\(name)()") }
        for (index, parameter) in parameters.enumerated() {
            for wrong in Self.wrong(parameter.kind) {
                var arguments = positional
                arguments[index] = wrong
                bad.append(call(arguments))
            }
            bad.append(call(Array(positional.prefix(index)) + ["\(parameter.name.dropLast()): \(positional[index])"]))
            bad.append(call(Array(positional.prefix(index + 1)) + ["\(parameter.name): \(positional[index])"]))
        }
    }

    static func sample(_ kind: ParameterSpec.Kind) -> String {
        switch kind {
        case .number(let range): return ArgumentValue.format((range.lowerBound + range.upperBound) / 2 + 0.25)
        case .positive(let max): return ArgumentValue.format(min(max, 2.5))
        case .integer(let range): return String(range.lowerBound)
        case .size, .box: return "40x30"
        case .color: return "#11223344"
        case .choice(let words): return words.last ?? "x"
        case .choiceSet(let words): return words.reversed().joined(separator: "+")
        case .anchor: return "(0.25, 0.75)"
        // A pair `x,y` would read as two positional arguments; a point is also written `(x, y)`.
        case .point: return "(0.25, 0.75)"
        case .ratio: return "16:9"
        case .text: return #""a \"b\".png""#
        }
    }

    /// Another good spelling, for the kinds that have one.
    static func alternative(_ kind: ParameterSpec.Kind) -> String? {
        switch kind {
        case .choiceSet(let words): return words.first
        case .anchor: return "bottomLeft"
        case .color: return "#ABCDEF"
        case .box: return "x30"
        default: return nil
        }
    }

    static func wrong(_ kind: ParameterSpec.Kind) -> [String] {
        switch kind {
        case .number(let range): return ["zzz", ArgumentValue.format(range.upperBound + 1), ArgumentValue.format(range.lowerBound - 1)]
        case .positive(let max): return ["-3", "0", ArgumentValue.format(max * 2), "#FF0000"]
        case .integer(let range): return ["1.5", String(range.upperBound + 1)]
        case .size: return ["0x10", "10x70000", "12"]
        case .box: return ["0x10", "10x70000", "12", "0x", "x0", "70000x", "x"]
        case .color: return ["red", "1x1"]
        case .choice(let words): return [String(words[0].dropLast()), "zzzzzz", "1"]
        case .choiceSet(let words): return [String(words[0].dropLast()), "\(words[0])+zzzzzz", "all+\(words[0])"]
        case .anchor: return ["centr", "(1.5, 0)", "3"]
        case .point: return ["(1.5, 0)", "(0, -1)", "3", "center"]
        case .ratio: return ["16:0", "0:9", "1001:1", "abc", "3", "16x9"]
        case .text(let maxLength): return ["logo", #""""#, "12", "\"" + String(repeating: "a", count: maxLength + 1) + "\""]
        }
    }
}
