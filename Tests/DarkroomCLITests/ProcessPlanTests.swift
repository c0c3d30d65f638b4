import DarkroomCodecs
import Testing

@testable import DarkroomCLI

@Suite("darkroom process: planning outputs")
struct ProcessPlanTests {
    @Test("One input with -o takes its format from the extension")
    func singleOutputFormatFromExtension() throws {
        let plan = try ProcessPlan.make(inputs: ["a/cat.png"], outputFile: "out/cat.webp", outputDirectory: nil, format: nil)
        #expect(plan.format == .webp)
        #expect(plan.items.map { $0.destination.path(for: .webp) } == ["out/cat.webp"])
    }

    @Test("--format wins over the extension of -o")
    func formatFlagWins() throws {
        let plan = try ProcessPlan.make(inputs: ["cat.png"], outputFile: "cat.out", outputDirectory: nil, format: .jpeg)
        #expect(plan.format == .jpeg)
    }

    @Test("An -o name without a known extension and no --format is refused")
    func unknownExtension() {
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["cat.png"], outputFile: "cat.bmp", outputDirectory: nil, format: nil)
        }
    }

    @Test("-o with several inputs is refused")
    func outputFileNeedsOneInput() {
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["a.png", "b.png"], outputFile: "x.png", outputDirectory: nil, format: nil)
        }
    }

    @Test("Two inputs with one base name are refused before any work, naming both")
    func collidingNames() {
        #expect {
            try ProcessPlan.make(inputs: ["a/cat.jpg", "b/cat.png"], outputFile: nil, outputDirectory: "out", format: nil)
        } throws: { error in
            let text = (error as? UsageFailure)?.description ?? ""
            return text.contains("a/cat.jpg") && text.contains("b/cat.png")
        }
    }

    @Test("--out names each output after its input's base name with the chosen format's extension")
    func directoryNames() throws {
        let plan = try ProcessPlan.make(inputs: ["x/photo.large.jpeg", "y.png"], outputFile: nil, outputDirectory: "out", format: nil)
        #expect(plan.items[0].destination.path(for: .png) == "out/photo.large.png")
        #expect(plan.items[1].destination.path(for: .jpeg) == "out/y.jpg")
    }

    @Test("Neither -o nor --out is refused")
    func needsDestination() {
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["a.png"], outputFile: nil, outputDirectory: nil, format: nil)
        }
    }

    @Test(
        "Outputs are named after a URL's path, without query or fragment, percent-decoded; data: URIs by position",
        arguments: [
            ("https://img.example.com/a/cat.jpg?w=2#x", 1, "cat"),
            ("http://img.example.com/a/my%20photo.png", 1, "my photo"),
            ("http://img.example.com/", 3, "image-3"),
            ("data:image/png;base64,iVBORw0KGgo=", 2, "image-2"),
            ("file:///srv/in/dog.webp", 1, "dog"),
            ("photos/bird.large.jpeg", 1, "bird.large"),
        ])
    func sourceBaseNames(source: String, position: Int, expected: String) {
        #expect(ProcessPlan.baseName(ofSource: source, position: position) == expected)
    }
}
