import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Testing

@Suite("Geometry processors in chain text")
struct GeometryChainSyntaxTests {
    let registry = GeometryTestSupport.registry

    /// (text as a person may write it, canonical text)
    static let spellings: [(String, String)] = [
        ("downsample(400x300)", "downsample(400x300)"),
        ("downsample(size: 400X300)", "downsample(400x300)"),
        ("resize(200x100)", "resize(200x100, mode: fit, anchor: center)"),
        ("resize(200x100, mode: fill, anchor: topLeft)", "resize(200x100, mode: fill, anchor: topLeft)"),
        ("resize(anchor: (0.25, 1), size: 64x64, mode: stretch)", "resize(64x64, mode: stretch, anchor: (0.25, 1))"),
        ("resize(64x64, fill, (0.5, 0))", "resize(64x64, mode: fill, anchor: top)"),
        ("crop(100x50)", "crop(100x50, anchor: center)"),
        ("crop(100x50, anchor: bottomRight)", "crop(100x50, anchor: bottomRight)"),
        ("crop(size: 10x10, anchor: (0.1, 0.9))", "crop(10x10, anchor: (0.1, 0.9))"),
        ("blur(4)", "blur(4)"),
        ("blur(radius: 2.5)", "blur(2.5)"),
        ("rotate(30)", "rotate(30, background: #00000000)"),
        ("rotate(-90, background: #fff000)", "rotate(-90, background: #FFF000FF)"),
        ("rotate(background: #00000080, degrees: 12.5)", "rotate(12.5, background: #00000080)"),
        ("flip(horizontal)", "flip(horizontal)"),
        ("flip(direction: vertical)", "flip(vertical)"),
    ]

    @Test("Parse → canonical text → parse round-trips for every spelling", arguments: spellings)
    func roundTrip(text: String, canonical: String) throws {
        try ChainSyntaxChecks.roundTrip(text, canonical: canonical, registry: registry)
    }

    @Test(
        "Positional and named spellings give one canonical text and one identifier",
        arguments: [
            ("blur(4)", "blur(radius: 4)"),
            ("resize(10x10, fill)", "resize(size: 10x10, mode: fill, anchor: center)"),
            ("crop(5x5, topLeft)", "crop(5x5, anchor: (0, 0))"),
            ("rotate(90)", "rotate(degrees: 90, background: #00000000)"),
            ("downsample(8x8)", "downsample(size: 8x8)"),
            ("flip(vertical)", "flip(direction: vertical)"),
        ])
    func twoSpellings(a: String, b: String) throws {
        let x = try registry.chain(from: a)
        let y = try registry.chain(from: b)
        #expect(x.canonicalText == y.canonicalText)
        #expect(x.identifier == y.identifier)
        #expect(x.hashableIdentifier == y.hashableIdentifier)
    }

    @Test("Identifiers carry the algorithm version")
    func versions() throws {
        let chain = try registry.chain(from: "downsample(400x400)|>crop(100x100)|>blur(2)|>rotate(10)|>flip(vertical)|>resize(50x50)")
        #expect(
            chain.identifier == "downsample.v1(400x400)|>crop.v1(100x100, anchor: center)|>blur.v1(2)"
                + "|>rotate.v1(10, background: #00000000)|>flip.v1(vertical)|>resize.v1(50x50, mode: fit, anchor: center)")
        #expect(chain.decodeHint == DecodeHint(box: PixelSize(width: 400, height: 400), mode: .fit))
        #expect(chain.introducesTransparency)
    }

    @Test("The Swift DSL builds the same processors as the text")
    func swiftDSL() throws {
        let chain =
            ImageProcessors.Downsample.downsample(to: PixelSize(width: 400, height: 400))
            |> .crop(to: PixelSize(width: 100, height: 100), anchor: .topLeft)
            |> .blur(radius: 2)
            |> .rotate(degrees: 10, background: .white)
            |> .flip(.horizontal)
            |> .resize(to: PixelSize(width: 50, height: 50), mode: .fill)
        let parsed = try registry.chain(from: chain.canonicalText)
        #expect(parsed.identifier == chain.identifier)
    }

    @Test(
        "Bad arguments fail with the processor, the argument, the column and a hint",
        arguments: [
            ("blur(-3)", ChainError.Code.invalidArgument, "blur: radius must be > 0 (got -3) at column 6"),
            ("blur(0)", .invalidArgument, "blur: radius must be > 0 (got 0) at column 6"),
            ("resize(10x10, mode: fil)", .invalidArgument, "resize: mode must be one of fit, fill, stretch (got 'fil') at column 21 — did you mean 'fill'?"),
            ("crop(10x10, anchor: (2, 0))", .invalidArgument, "crop: anchor must be a point with coordinates in 0…1 (got (2, 0)) at column 21"),
            ("flip", .missingArgument, "flip: missing direction (one of horizontal, vertical) at column 5"),
            ("rotate(30, backgrond: #FFFFFF)", .unknownArgument, "rotate: unknown argument 'backgrond' at column 12 — did you mean 'background'?"),
            ("downsample(0x10)", .invalidArgument, "downsample: size must have sides in 1…65535 (got 0x10) at column 12"),
        ])
    func errors(text: String, code: ChainError.Code, message: String) throws {
        let error = try #require(GeometryTestSupport.chainError(text))
        #expect(error.code == code)
        #expect(error.description == message)
    }
}
