import DarkroomChains
import DarkroomCore
import DarkroomSchema
import DarkroomStandardProcessors
import Testing

/// The client library checks chains against `StandardProcessorSpecs.catalog`, which has no pixel
/// code; workers run them from `StandardProcessors.registry`. A chain one accepts the other must
/// accept, printing the same canonical text (and identifier), or refuse with the same error.
@Suite("The standard processors' pixel-free catalog prints what the processors print")
struct StandardCatalogTests {
    /// What `text` gives: the canonical text and identifier, or the error.
    static func outcome(_ bind: () throws(ChainError) -> (String, String)) -> String {
        do {
            let (canonical, identifier) = try bind()
            return canonical + " = " + identifier
        } catch {
            return "error \(error.code.rawValue) column \(error.column): \(error)"
        }
    }

    static func catalogOutcome(_ text: String) -> String {
        outcome { () throws(ChainError) in
            let catalog = StandardProcessorSpecs.catalog
            let invocations = try ChainParser.parse(text).calls.map { call throws(ChainError) in try catalog.invocation(of: call) }
            return (invocations.map(\.canonicalText).joined(separator: "|>"), invocations.map(\.versionedText).joined(separator: "|>"))
        }
    }

    static func registryOutcome(_ text: String) -> String {
        outcome { () throws(ChainError) in
            let chain = try StandardProcessors.registry.chain(from: text)
            return (chain.canonicalText, chain.identifier)
        }
    }

    @Test("Every standard processor's spec is its descriptor's, in the same order")
    func specsAreTheDescriptors() {
        #expect(StandardProcessorSpecs.all.map(\.name) == StandardProcessors.descriptors.map(\.name))
        for (spec, descriptor) in zip(StandardProcessorSpecs.all, StandardProcessors.descriptors) {
            #expect(ProcessorSchema(spec) == ProcessorSchema(descriptor), "\(spec.name)")
            #expect(spec.signature == descriptor.signature)
        }
    }

    @Test("The choice lists of the specs are the processors' own enumerations")
    func choicesAreTheEnumerations() {
        #expect(StandardProcessorSpecs.blendModes == BlendMode.allCases.map(\.rawValue))
        #expect(StandardProcessorSpecs.resizeModes == ImageProcessors.Resize.Mode.allCases.map(\.rawValue))
        #expect(StandardProcessorSpecs.flipDirections == ImageProcessors.Flip.Direction.allCases.map(\.rawValue))
        #expect(StandardProcessorSpecs.corners == ImageProcessors.RoundCorner.Corners.named.map(\.name))
    }

    @Test(
        "Given chains with defaults left out, labels, anchors, colours and lists, when bound both ways, then the texts agree",
        arguments: [
            "downsample(400x300)", "resize(10x10)", "resize(size: 10x10, anchor: bottomRight, mode: fill)",
            "resize(10x10, stretch, (0.25, 0.75))", "crop(200x100, anchor: topLeft)", "crop(1x1, (1, 0))",
            "roundCorner(20)", "roundCorner(9999, corners: topRight+topLeft, background: #ff8000)", "roundCorner(1, corners: all)",
            "roundCorner(2.5, bottomLeft, #00000080)", "blur(4)", "blur(radius: 0.5)", "tint(#FF000080)", "tint(#abcdef)",
            "overlay(#00FF00)", "overlay(#00FF00, fraction: 0.25)", "colorControls", "colorControls()",
            "colorControls(exposure: 0.7, saturation: 0)", "colorControls(0.1, 1.5, 2, -1)", "blackWhite", "border(2, #000000)",
            "border(width: 0.5, color: #FFFFFF, radius: 8)", "blend(multiply, #808080)", "blend(color: #FF0000, mode: softLight)",
            "rotate(30)", "rotate(-90, background: #FFFFFF)", "rotate(630)", "flip(horizontal)", "flip(direction: vertical)",
            " downsample( 800x800 ) |> roundCorner(20, corners: topLeft+topRight+topLeft) |>blackWhite|>flip(vertical)",
            "resize(10x10, mode: fil)", "roundCorner(-2)", "blur(0)", "rotate(4000)", "crop(0x10)", "blend(mix, #000000)",
            "tint(red)", "flip", "border(1)", "colorControls(contrast: 5)", "roundCorner(1, corners: topLef)", "blurr(2)",
            "trim", "trim(threshold: 0, color: #FFFFFF)", "trim(color: corner)", "trim(color: top)", "extend(800x600)",
            "extend(x90, bottomRight, #102030)", "extend(10x10, anchor: middle)", "pixelate(8)", "pixelate(0)",
            "sharpen", "sharpen(0.5, 0.8)", "sharpen(threshold: 2, sigma: 3)", "sharpen(sigma: 0)", "sharpen(amount: 11)",
        ])
    func sameText(text: String) {
        #expect(Self.catalogOutcome(text) == Self.registryOutcome(text))
    }

    @Test("Given the good and bad chains made from every parameter of every standard processor, then the catalog agrees call for call")
    func sameForEveryParameter() {
        let corpora = StandardProcessors.descriptors.map(SchemaCorpus.init)
        for text in corpora.flatMap(\.good) + corpora.flatMap(\.bad) {
            #expect(Self.catalogOutcome(text) == Self.registryOutcome(text), "\(text)")
        }
    }
}
