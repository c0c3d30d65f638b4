import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Testing

@Suite("Colour and shape processors in chain text")
struct ColorChainSyntaxTests {
    let registry = ColorTestSupport.registry

    /// (text as a person may write it, canonical text)
    static let spellings: [(String, String)] = [
        ("roundCorner(20)", "roundCorner(20, corners: topLeft+topRight+bottomLeft+bottomRight, background: #00000000)"),
        ("roundCorner(20, corners: topRight+topLeft)", "roundCorner(20, corners: topLeft+topRight, background: #00000000)"),
        (
            "roundCorner(radius: 12.5, corners: all, background: #ffffff)",
            "roundCorner(12.5, corners: topLeft+topRight+bottomLeft+bottomRight, background: #FFFFFFFF)"
        ),
        ("tint(#ff000080)", "tint(#FF000080)"),
        ("overlay(#00FF00)", "overlay(#00FF00FF, fraction: 0.5)"),
        ("overlay(color: #00FF00, fraction: 1)", "overlay(#00FF00FF, fraction: 1)"),
        ("colorControls", "colorControls(brightness: 0, contrast: 1, saturation: 1, exposure: 0)"),
        ("colorControls(exposure: 0.5, brightness: -0.1)", "colorControls(brightness: -0.1, contrast: 1, saturation: 1, exposure: 0.5)"),
        ("blackWhite()", "blackWhite"),
        ("border(2, #000000)", "border(2, #000000FF, radius: 0)"),
        ("border(color: #336699, width: 1.5, radius: 8)", "border(1.5, #336699FF, radius: 8)"),
        ("blend(multiply, #808080)", "blend(multiply, #808080FF)"),
        ("blend(color: #808080, mode: softLight)", "blend(softLight, #808080FF)"),
    ]

    @Test("Parse → canonical text → parse round-trips for every spelling", arguments: spellings)
    func roundTrip(text: String, canonical: String) throws {
        try ChainSyntaxChecks.roundTrip(text, canonical: canonical, registry: registry)
    }

    @Test("Two spellings of one roundCorner give one canonical text and one identifier")
    func twoSpellings() throws {
        let a = try registry.chain(from: "roundCorner(20, corners: topRight+topLeft)")
        let b = try registry.chain(from: "roundCorner(radius: 20, corners: topLeft+topRight)")
        #expect(a.canonicalText == b.canonicalText)
        #expect(a.identifier == "roundCorner.v1(20, corners: topLeft+topRight, background: #00000000)")
        #expect(a.identifier == b.identifier)
        #expect(a.hashableIdentifier == b.hashableIdentifier)
    }

    @Test("The Swift DSL builds the same processors as the text")
    func swiftDSLMatchesText() throws {
        let pairs: [(any ImageProcessing, String)] = [
            (.roundCorner(radius: 20, corners: [.topRight, .topLeft]), "roundCorner(20, corners: topLeft+topRight)"),
            (.tint(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)), "tint(#FF000080)"),
            (.overlay(.black, fraction: 0.25), "overlay(#000000, fraction: 0.25)"),
            (.colorControls(contrast: 1.5), "colorControls(contrast: 1.5)"),
            (.blackWhite, "blackWhite"),
            (.border(width: 2, color: .white, radius: 4), "border(2, #FFFFFF, radius: 4)"),
            (.blend(mode: .screen, color: .white), "blend(screen, #FFFFFF)"),
        ]
        for (processor, text) in pairs {
            let parsed = try ColorTestSupport.processor(text)
            #expect(processor.identifier == parsed.identifier)
            #expect(processor.hashableIdentifier == parsed.hashableIdentifier)
        }
    }

    @Test("Order matters: blackWhite then tint is another chain than tint then blackWhite")
    func orderMatters() throws {
        let a = try registry.chain(from: "blackWhite|>tint(#FF000080)")
        let b = try registry.chain(from: "tint(#FF000080)|>blackWhite")
        #expect(a.identifier != b.identifier)
    }

    /// (chain text, the exact message, the error code)
    static let errors: [(String, String, ChainError.Code)] = [
        ("roundCorner(-3)", "roundCorner: radius must be > 0 (got -3) at column 13", .invalidArgument),
        ("tint(#FF0000)|>roundCorner(radius: 0)", "roundCorner: radius must be > 0 (got 0) at column 36", .invalidArgument),
        (
            "roundCorner(10, corners: topLeft+bottomRigth)",
            "roundCorner: corners must be one or more of topLeft, topRight, bottomLeft, bottomRight joined with +, or all (got 'bottomRigth') at column 26 — did you mean 'bottomRight'?",
            .invalidArgument
        ),
        ("overlay(#FF0000, fraction: 1.5)", "overlay: fraction must be in 0…1 (got 1.5) at column 28", .invalidArgument),
        ("border(0, #FF0000)", "border: width must be > 0 (got 0) at column 8", .invalidArgument),
        ("border(2, #FF0000, radius: -1)", "border: radius must be in 0…65535 (got -1) at column 28", .invalidArgument),
        ("colorControls(contrast: 5)", "colorControls: contrast must be in 0…4 (got 5) at column 25", .invalidArgument),
        ("colorControls(saturaton: 2)", "colorControls: unknown argument 'saturaton' at column 15 — did you mean 'saturation'?", .unknownArgument),
        (
            "blend(multipy, #FF0000)",
            "blend: mode must be one of normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight, difference, exclusion (got 'multipy') at column 7 — did you mean 'multiply'?",
            .invalidArgument
        ),
        ("blend(multiply)", "blend: missing color (a colour #RRGGBB or #RRGGBBAA) at column 15", .missingArgument),
        ("tint(12)", "tint: color must be a colour #RRGGBB or #RRGGBBAA (got 12) at column 6", .invalidArgument),
        ("blackWhite(1)", "blackWhite: takes 0 arguments (blackWhite), got more at column 12", .tooManyArguments),
    ]

    @Test("Bad arguments fail with the processor, the argument, the column and a suggestion", arguments: errors)
    func errorMessages(text: String, message: String, code: ChainError.Code) {
        #expect {
            _ = try registry.chain(from: text)
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            #expect(error.description == message)
            #expect(error.code == code)
            return true
        }
    }

    @Test("introducesTransparency is true exactly where an opaque input may come out transparent")
    func transparencyFlags() throws {
        let cases: [(String, Bool)] = [
            ("roundCorner(10)", true), ("roundCorner(10, background: #FFFFFF)", false),
            ("roundCorner(10, background: #FFFFFF80)", true), ("border(2, #000000)", false),
            ("border(2, #000000, radius: 4)", true), ("tint(#FF000080)", false), ("overlay(#FF0000)", false),
            ("colorControls(brightness: 0.5)", false), ("blackWhite", false), ("blend(multiply, #FF000080)", false),
        ]
        for (text, expected) in cases {
            #expect(try registry.chain(from: text).introducesTransparency == expected, "\(text)")
        }
    }
}
