import DarkroomChains
import Testing

@Suite("Chain text syntax")
struct ChainParserTests {
    let catalog = ChainTestSpecs.catalog

    @Test("Given positional, named and default arguments, the canonical text fills in every default")
    func canonicalFillsDefaults() throws {
        #expect(
            try catalog.canonicalText(of: "shape(400x300, 20)")
                == "shape(400x300, 20, corners: topLeft+topRight+bottomLeft+bottomRight, background: #00000000, anchor: center, mode: fit, count: 1)")
    }

    @Test("Two spellings of the same chain have one canonical text and one identifier")
    func spellingsAgree() throws {
        let a = "shape(400x300, 20, corners: topRight+topLeft)|>plain"
        let b = " shape( radius: 20 , size: 400x300, corners: topLeft+topRight+topLeft ) |> plain() "
        #expect(try catalog.canonicalText(of: a) == catalog.canonicalText(of: b))
        #expect(try ChainTestSpecs.identifier(a) == ChainTestSpecs.identifier(b))
    }

    @Test("A different order is a different chain")
    func orderMatters() throws {
        #expect(try ChainTestSpecs.identifier("shape(10x10, 1)|>plain") != ChainTestSpecs.identifier("plain|>shape(10x10, 1)"))
    }

    @Test("The identifier carries each processor's version")
    func identifierHasVersion() throws {
        #expect(try ChainTestSpecs.identifier("plain|>shape(10x10, 1)").hasPrefix("plain.v1|>shape.v3(10x10, 1, "))
    }

    @Test(
        "Canonical text parses back to itself",
        arguments: [
            "shape(1x1, 0.5)",
            "shape(400x400, 20, corners: topLeft+bottomRight, background: #FF000080, anchor: (0.25, 0.75), mode: stretch, count: 10)",
            "plain|>plain|>shape(2x3, 1000, anchor: bottomRight)",
        ])
    func roundTrip(text: String) throws {
        let once = try catalog.canonicalText(of: text)
        let twice = try catalog.canonicalText(of: once)
        #expect(once == twice)
    }

    @Test("Colours accept six or eight hex digits in either case")
    func colours() throws {
        #expect(try catalog.canonicalText(of: "shape(1x1, 1, background: #ff8000)").contains("background: #FF8000FF"))
    }

    @Test("all expands to every corner")
    func allCorners() throws {
        #expect(try catalog.canonicalText(of: "shape(1x1, 1, corners: all)").contains("corners: topLeft+topRight+bottomLeft+bottomRight"))
    }

    @Test("A value check names the processor, the argument and the column")
    func invalidValue() {
        #expect {
            _ = try catalog.canonicalText(of: "plain|>shape(10x10, -3)")
        } throws: { error in
            (error as? ChainError)?.description == "shape: radius must be > 0 (got -3) at column 21"
                && (error as? ChainError)?.code == .invalidArgument
        }
    }

    @Test("An unknown processor suggests the nearest name")
    func unknownProcessor() {
        #expect {
            _ = try catalog.canonicalText(of: "shap(1x1, 1)")
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            return error.code == .unknownProcessor && error.suggestion == "shape"
                && error.description == "unknown processor 'shap' at column 1 — did you mean 'shape'?"
        }
    }

    @Test("An unknown argument suggests the nearest parameter")
    func unknownArgument() {
        #expect {
            _ = try catalog.canonicalText(of: "shape(1x1, 1, corner: topLeft)")
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            return error.code == .unknownArgument && error.suggestion == "corners" && error.column == 15
        }
    }

    @Test(
        "A bad choice names the allowed words",
        arguments: [
            ("shape(1x1, 1, mode: fil)", "fill"),
            ("shape(1x1, 1, corners: topLeft+topRigt)", "topRight"),
            ("shape(1x1, 1, anchor: centre)", "center"),
        ])
    func badChoice(text: String, suggestion: String) {
        #expect {
            _ = try catalog.canonicalText(of: text)
        } throws: { error in
            (error as? ChainError)?.code == .invalidArgument && (error as? ChainError)?.suggestion == suggestion
        }
    }

    @Test(
        "Syntax errors point at the column",
        arguments: [
            ("", ChainError.Code.empty, 1),
            ("shape(1x1, 1", .syntax, 13),
            ("shape(1x1 1)", .syntax, 11),
            ("shape(1x1, 1) plain", .syntax, 15),
            ("shape(1x1, 1)|>", .syntax, 16),
            ("shape(radius: 1, 1x1)", .syntax, 18),
            ("shape(1xy, 1)", .syntax, 9),  // `1x` alone is a width-only box: OneSidedBoxTests
            ("shape(1x1, 1, background: #12345)", .syntax, 27),
            ("shape(1x1, 1, anchor: (0.5 0.5))", .syntax, 28),
        ])
    func syntaxErrors(text: String, code: ChainError.Code, column: Int) {
        #expect {
            _ = try catalog.canonicalText(of: text)
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            return error.code == code && error.column == column
        }
    }

    @Test(
        "Binding errors have stable codes",
        arguments: [
            ("shape(1x1)", ChainError.Code.missingArgument),
            ("shape(1x1, 1, radius: 2)", .duplicateArgument),
            ("plain(1)", .tooManyArguments),
            ("shape(1x1, 1, count: 2.5)", .invalidArgument),
            ("shape(1x1, 1, count: 11)", .invalidArgument),
            ("shape(0x10, 1)", .invalidArgument),
            ("shape(1x1, 1, anchor: (1.5, 0))", .invalidArgument),
            ("shape(1x1, #FFFFFF)", .invalidArgument),
        ])
    func bindingErrors(text: String, code: ChainError.Code) {
        #expect {
            _ = try catalog.canonicalText(of: text)
        } throws: { error in
            (error as? ChainError)?.code == code
        }
    }
}
