import DarkroomCodecs
import DarkroomQueue
import Testing

@testable import DarkroomCLI

@Suite("darkroom process: planning outputs")
struct ProcessPlanTests {
    @Test("One input with -o takes its format from the extension")
    func singleOutputFormatFromExtension() throws {
        let plan = try ProcessPlan.make(inputs: ["a/cat.png"], outputFile: "out/cat.webp", outputDirectory: nil, format: nil)
        #expect(plan.format == .webp)
        #expect(try plan.items.map { try $0.destination.path(for: .webp) } == ["out/cat.webp"])
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

    @Test("Two inputs with one base name: the later gets {stem}-{chain}.{ext}; a third is refused before any work, naming both")
    func collidingNames() throws {
        let plan = try ProcessPlan.make(
            inputs: ["a/cat.jpg", "b/cat.png"], outputFile: nil, outputDirectory: "out", format: nil, chain: "blur(sigma: 2)")
        #expect(try plan.items.map { try $0.destination.path(for: .webp) } == ["out/cat.webp", "out/cat-\(ChainDigest.of("blur(sigma: 2)")).webp"])
        #expect {
            try ProcessPlan.make(inputs: ["a/cat.jpg", "b/cat.png", "c/cat.gif"], outputFile: nil, outputDirectory: "out", format: nil)
        } throws: { error in
            let text = (error as? UsageFailure)?.description ?? ""
            return text.contains("c/cat.gif") && text.contains("b/cat.png") && text.contains("name.collision")
        }
    }

    @Test("--name names the files in --out, refuses a clash naming both inputs, and is refused with -o")
    func nameTemplate() throws {
        let plan = try ProcessPlan.make(
            inputs: ["a/cat.jpg", "data:image/png;base64,AA"], outputFile: nil, outputDirectory: "out", format: .webp, name: "{batch}-{id}-{stem}.{ext}")
        #expect(try plan.items.map { try $0.destination.path(for: .webp) } == ["out/process-image-1-cat.webp", "out/process-image-2-image-2.webp"])
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["a/cat.jpg", "b/cat.jpg"], outputFile: nil, outputDirectory: "out", format: .webp, name: "{stem}.{ext}")
        }
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["a/cat.jpg"], outputFile: nil, outputDirectory: "out", format: nil, name: "{stem}/{ext}")
        }
        #expect(throws: UsageFailure.self) {
            try ProcessPlan.make(inputs: ["a/cat.jpg"], outputFile: "x.webp", outputDirectory: nil, format: nil, name: "{stem}.{ext}")
        }
    }

    @Test("--out names each output after its input's base name with the chosen format's extension")
    func directoryNames() throws {
        let plan = try ProcessPlan.make(inputs: ["x/photo.large.jpeg", "y.png"], outputFile: nil, outputDirectory: "out", format: nil)
        #expect(try plan.items[0].destination.path(for: .png) == "out/photo.large.png")
        #expect(try plan.items[1].destination.path(for: .jpeg) == "out/y.jpg")
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
