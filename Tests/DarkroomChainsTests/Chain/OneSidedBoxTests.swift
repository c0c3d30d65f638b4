import DarkroomChains
import DarkroomSchema
import Foundation
import Testing

@Suite("Width-only and height-only boxes in chain text")
struct OneSidedBoxTests {
    let catalog = StandardProcessorSpecs.catalog

    /// The versioned identifier (what cache keys use) of `text` bound against the standard specs.
    func identifier(_ text: String) throws -> String {
        var pieces: [String] = []
        for call in try ChainParser.parse(text).calls {
            pieces.append(try catalog.invocation(of: call).versionedText)
        }
        return pieces.joined(separator: "|>")
    }

    func failure(_ text: String, in registry: ValidationOnlyRegistry? = nil) -> ChainError? {
        do {
            _ = try (registry ?? catalog).canonicalText(of: text)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "Chains with two-sided boxes keep the canonical text and identifier they had before one-sided boxes",
        arguments: [
            ("downsample(400x300)", "downsample(400x300)", "downsample.v1(400x300)"),
            ("downsample(size: 8X8)", "downsample(8x8)", "downsample.v1(8x8)"),
            ("resize(200x100, fill)", "resize(200x100, mode: fill, anchor: center)", "resize.v1(200x100, mode: fill, anchor: center)"),
            ("crop(100x50, topLeft)", "crop(100x50, anchor: topLeft)", "crop.v1(100x50, anchor: topLeft)"),
            (
                "downsample(400x400)|>crop(65535x1)", "downsample(400x400)|>crop(65535x1, anchor: center)",
                "downsample.v1(400x400)|>crop.v1(65535x1, anchor: center)"
            ),
        ])
    func twoSidedUnchanged(text: String, canonical: String, identifier: String) throws {
        #expect(try catalog.canonicalText(of: text) == canonical)
        #expect(try self.identifier(text) == identifier)
    }

    @Test(
        "A width or a height alone prints as written, lower case, and parses back to itself",
        arguments: [
            ("downsample(400x)", "downsample(400x)"),
            ("downsample(X300)", "downsample(x300)"),
            ("downsample(size: 400X )", "downsample(400x)"),
            ("resize(x300)", "resize(x300, mode: fit, anchor: center)"),
            ("resize(400x, stretch)", "resize(400x, mode: stretch, anchor: center)"),
            ("crop(400x, top)", "crop(400x, anchor: top)"),
            ("crop(size: x1, anchor: (0, 1))", "crop(x1, anchor: bottomLeft)"),
            ("downsample(65535x)|>downsample(x65535)", "downsample(65535x)|>downsample(x65535)"),
        ])
    func oneSidedCanonical(text: String, canonical: String) throws {
        #expect(try catalog.canonicalText(of: text) == canonical)
        #expect(try catalog.canonicalText(of: canonical) == canonical)
        #expect(try identifier(text).contains(".v1("))
    }

    @Test("A width alone parses as a one-sided box; a height alone as a word, which a box parameter reads")
    func parsedValues() throws {
        #expect(try ChainParser.value("400x") == .oneSidedBox(.width(400)))
        #expect(try ChainParser.value("x300") == .word("x300"))
        #expect(ArgumentValue.box(.height(300)).description == "x300")
        #expect(ArgumentValue.box(PixelSize(width: 4, height: 3)) == .size(PixelSize(width: 4, height: 3)))
        #expect(PixelSize.width(400).bounded == PixelSize(width: 400, height: 65535))
        #expect(PixelSize.height(300).completed(from: PixelSize(width: 1000, height: 600)) == PixelSize(width: 1000, height: 300))
        #expect(!PixelSize(width: 0, height: 0).isOneSided && !PixelSize(width: 2, height: 2).isOneSided)
    }

    @Test(
        "Bad one-sided boxes fail with the argument, the column and the rule",
        arguments: [
            ("downsample(0x)", ChainError.Code.invalidArgument, "downsample: size must have sides in 1…65535 (got 0x) at column 12"),
            ("downsample(x0)", .invalidArgument, "downsample: size must have sides in 1…65535 (got x0) at column 12"),
            ("crop(70000x)", .invalidArgument, "crop: size must have sides in 1…65535 (got 70000x) at column 6"),
            ("downsample(0x300)", .invalidArgument, "downsample: size must have sides in 1…65535 (got 0x300) at column 12"),
            ("downsample(x)", .invalidArgument, "downsample: size must be a size WxH, a width Wx or a height xH (got x) at column 12"),
            ("downsample(x3y)", .invalidArgument, "downsample: size must be a size WxH, a width Wx or a height xH (got x3y) at column 12"),
            ("downsample(400xa)", .syntax, "a size is two whole numbers WxH, e.g. 400x300, or a width alone, e.g. 400x at column 16"),
            ("downsample(1.5x)", .syntax, "a size is two whole numbers WxH, e.g. 400x300, or a width alone, e.g. 400x at column 16"),
            (
                "resize(400x, mode: fill)", .invalidArgument,
                "resize: mode fill needs both sides of the box (got 400x); fit scales to that width keeping the aspect ratio at column 20 — did you mean 'fit'?"
            ),
            (
                "resize(x30, fill)", .invalidArgument,
                "resize: mode fill needs both sides of the box (got x30); fit scales to that height keeping the aspect ratio at column 13 — did you mean 'fit'?"
            ),
        ])
    func errors(text: String, code: ChainError.Code, message: String) throws {
        let error = try #require(failure(text))
        #expect(error.code == code)
        #expect(error.description == message)
    }

    @Test("A plain size parameter (every plugin's) refuses a free side, and keeps a choice spelled like a height")
    func plainSizeRefuses() throws {
        let shape = ChainTestSpecs.catalog
        #expect(
            failure("shape(400x, 1)", in: shape)?.description
                == "shape: size must be a size WxH with both sides (got 400x) at column 7")
        #expect(failure("shape(x300, 1)", in: shape)?.description == "shape: size must be a size WxH (got x300) at column 7")
        let zoom = ProcessorSpec(
            name: "zoom", version: 1, summary: "", parameters: [ParameterSpec("factor", .choice(["x2", "x4"]))])
        #expect(try ValidationOnlyRegistry(specs: [zoom]).canonicalText(of: "zoom(x2)") == "zoom(x2)")
    }

    @Test("A box parameter's schema is a size with oneSided, and binds one-sided boxes as the spec does")
    func schema() throws {
        let schema = ProcessorSchema(StandardProcessorSpecs.crop)
        #expect(schema.parameters[0].kind == .box)
        let json = String(decoding: try JSONEncoder().encode(schema.parameters[0]), as: UTF8.self)
        #expect(json.contains(#""kind":"size""#) && json.contains(#""oneSided":true"#))
        let back = try JSONDecoder().decode(ProcessorSchema.self, from: JSONEncoder().encode(schema))
        #expect(back == schema)
        let registry = try ValidationOnlyRegistry([back])
        #expect(try registry.canonicalText(of: "crop(X30)") == "crop(x30, anchor: center)")
        // A reader that does not know `oneSided` sees a plain size, which refuses a free side.
        let old = #"{"name":"size","kind":"size"}"#
        #expect(try JSONDecoder().decode(ProcessorSchema.Parameter.self, from: Data(old.utf8)).kind == .size)
    }
}
