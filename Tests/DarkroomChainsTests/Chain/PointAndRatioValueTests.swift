import DarkroomChains
import DarkroomSchema
import Foundation
import Testing

/// The two-part values (a focal point `x,y`, a ratio `W:H`) and optional parameters without a
/// default, checked against the standard specs.
@Suite("Focal points x,y, ratios W:H and optional parameters in chain text")
struct PointAndRatioValueTests {
    let catalog = StandardProcessorSpecs.catalog

    func failure(_ text: String) -> ChainError? {
        do {
            _ = try catalog.canonicalText(of: text)
            return nil
        } catch {
            return error
        }
    }

    /// The 1-based column of the last occurrence of `piece` in `text`.
    func column(of piece: String, in text: String) -> Int {
        text.distance(from: text.startIndex, to: text.range(of: piece, options: .backwards)!.lowerBound) + 1
    }

    @Test(
        "Given a focal point written as x,y, x, y or (x, y), when bound, then it prints as x,y after its label",
        arguments: [
            ("crop(400x300, focus: 0.8,0.25)", "crop(400x300, anchor: center, focus: 0.8,0.25)"),
            ("crop(400x300, focus: 0.8, 0.25)", "crop(400x300, anchor: center, focus: 0.8,0.25)"),
            ("crop(focus: (0.8, 0.25), size: 400x300)", "crop(400x300, anchor: center, focus: 0.8,0.25)"),
            ("resize(90x90, fill, focus: 0,1)", "resize(90x90, mode: fill, anchor: center, focus: 0,1)"),
            ("resize(90x90, mode: fill, focus: 0.5,0.5)", "resize(90x90, mode: fill, anchor: center, focus: 0.5,0.5)"),
        ])
    func focusPrints(text: String, canonical: String) throws {
        #expect(try catalog.canonicalText(of: text) == canonical)
        #expect(try catalog.canonicalText(of: canonical) == canonical)
    }

    @Test(
        "Given a coordinate outside 0…1, then the error points at that number",
        arguments: ["crop(400x300, focus: 1.2,0.5)", "crop(400x300, focus: 0.5, -0.1)", "resize(9x9, fill, focus: 0.5,1.0001)"])
    func focusOutOfRange(text: String) throws {
        let error = try #require(failure(text))
        let bad = ["1.2", "-0.1", "1.0001"].first { text.contains($0) }!
        #expect(error.code == .invalidArgument)
        #expect(error.argument == "focus")
        #expect(error.column == column(of: bad, in: text))
        #expect(error.message.contains("0…1"), "\(error)")
    }

    @Test("Given one number for focus, then the error says a point x,y is expected")
    func focusOneNumber() throws {
        let error = try #require(failure("crop(400x300, focus: 0.5)"))
        #expect(error.code == .invalidArgument)
        #expect(error.column == 22)
        #expect(error.message.contains("a point x,y"), "\(error)")
    }

    @Test("Given focus on resize with a mode other than fill, then it is refused at focus, suggesting fill")
    func focusNeedsFill() throws {
        for text in ["resize(400x300, focus: 0.3,0.3)", "resize(400x300, mode: stretch, focus: 0.3,0.3)"] {
            let error = try #require(failure(text))
            #expect(error.code == .invalidArgument)
            #expect(error.argument == "focus")
            #expect(error.column == column(of: "0.3,0.3", in: text))
            #expect(error.suggestion == "fill")
            #expect(error.message.contains("fill"))
        }
    }

    @Test("A number after a named number that is not a point is still a positional argument after a named one")
    func pairElsewhere() throws {
        let error = try #require(failure("blur(radius: 3, 4)"))
        #expect(error.code == .syntax)
        #expect(error.column == 17)
        #expect(error.message.contains("positional argument after a named one"))
        #expect(failure("colorControls(brightness: 0.1, contrast: 2)") == nil)
    }

    @Test(
        "Given an aspect ratio, then it prints in lowest terms after the anchor and colour",
        arguments: [
            ("extend(aspect: 16:9)", "extend(anchor: center, color: #00000000, aspect: 16:9)"),
            ("extend(aspect: 32:18, color: #fff000)", "extend(anchor: center, color: #FFF000FF, aspect: 16:9)"),
            ("extend(anchor: top, aspect: 1000:1)", "extend(anchor: top, color: #00000000, aspect: 1000:1)"),
        ])
    func aspectPrints(text: String, canonical: String) throws {
        #expect(try catalog.canonicalText(of: text) == canonical)
        #expect(try catalog.canonicalText(of: canonical) == canonical)
    }

    @Test(
        "Given a bad ratio, then it is refused with the column of the bad part",
        arguments: [
            ("extend(aspect: 16:0)", "0", ChainError.Code.invalidArgument),
            ("extend(aspect: 0:9)", "0:9", .invalidArgument),
            ("extend(aspect: 1001:1)", "1001", .invalidArgument),
            ("extend(aspect: abc)", "abc", .invalidArgument),
            ("extend(aspect: 16:)", ")", .syntax),
            ("extend(aspect: 16:9.5)", "9.5", .syntax),
        ])
    func badRatio(text: String, bad: String, code: ChainError.Code) throws {
        let error = try #require(failure(text))
        #expect(error.code == code, "\(error)")
        #expect(error.column == column(of: bad, in: text), "\(error)")
    }

    @Test("extend takes exactly one of a size and an aspect ratio")
    func sizeOrAspect() throws {
        let both = try #require(failure("extend(800x600, aspect: 16:9)"))
        #expect(both.code == .invalidArgument)
        #expect(both.column == 25)
        let neither = try #require(failure("extend(anchor: top)"))
        #expect(neither.code == .missingArgument)
        #expect(neither.message.contains("aspect"))
        #expect(failure("extend") != nil)
    }

    @Test("Values standing alone read back as printed: a pair and a ratio")
    func valuesAlone() throws {
        #expect(try ChainParser.value("0.3,0.7") == .pair(UnitPoint(x: 0.3, y: 0.7)))
        #expect(try ChainParser.value("16:9") == .ratio(AspectRatio(width: 16, height: 9)))
        #expect(ArgumentValue.pair(UnitPoint(x: 0.25, y: 1)).description == "0.25,1")
    }

    @Test("An optional parameter is marked in signatures and schemas, and survives JSON; with a default it is refused")
    func optionalInSchema() throws {
        #expect(StandardProcessorSpecs.crop.signature == "crop(size, anchor: center, [focus])")
        let schema = ProcessorSchema(StandardProcessorSpecs.extend)
        let json = String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
        #expect(json.contains("\"optional\":true"))
        #expect(json.contains("\"kind\":\"ratio\""))
        let decoded = try JSONDecoder().decode(ProcessorSchema.self, from: Data(json.utf8))
        #expect(decoded == schema)
        let spec = try ProcessorSpec(schema: decoded)
        #expect(spec.parameters.map(\.isOptional) == [true, false, false, true])
        var wrong = schema
        wrong.parameters[3].defaultText = "16:9"
        #expect(throws: ProcessorSchemaError.self) { try ProcessorSpec(schema: wrong) }
    }
}
