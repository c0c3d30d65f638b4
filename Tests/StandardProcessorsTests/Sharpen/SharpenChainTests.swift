import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Testing

@Suite("sharpen in chain text: defaults, canonical text, ranges and errors")
struct SharpenChainTests {
    static let registry = StandardProcessors.registry

    @Test(
        "Every spelling prints every argument, so the cache key holds them all",
        arguments: [
            ("sharpen", "sharpen(sigma: 1, amount: 1, threshold: 0)"),
            ("sharpen()", "sharpen(sigma: 1, amount: 1, threshold: 0)"),
            ("sharpen(0.5, 0.8)", "sharpen(sigma: 0.5, amount: 0.8, threshold: 0)"),
            ("sharpen(threshold: 3, sigma: 2)", "sharpen(sigma: 2, amount: 1, threshold: 3)"),
            (
                "downsample(800x800)|>sharpen(sigma: 0.5, amount: 0.8)",
                "downsample(800x800)|>sharpen(sigma: 0.5, amount: 0.8, threshold: 0)"
            ),
        ])
    func canonical(text: String, canonical: String) throws {
        try ChainSyntaxChecks.roundTrip(text, canonical: canonical, registry: Self.registry)
    }

    @Test("Two spellings share one identifier; a different argument gives another")
    func identity() throws {
        let a = try Self.registry.chain(from: "sharpen(amount: 1)")
        let b = try Self.registry.chain(from: "sharpen(1, 1, 0)")
        let c = try Self.registry.chain(from: "sharpen(threshold: 1)")
        #expect(a.identifier == "sharpen.v1(sigma: 1, amount: 1, threshold: 0)")
        #expect(a.identifier == b.identifier && a.hashableIdentifier == b.hashableIdentifier)
        #expect(a.identifier != c.identifier)
        let swift: any ImageProcessing = .sharpen(sigma: 0.5, amount: 0.8)
        #expect(swift.identifier == (try Self.registry.chain(from: "sharpen(sigma: 0.5, amount: 0.8)")).identifier)
    }

    @Test(
        "Out-of-range arguments fail naming the argument and the column of its value",
        arguments: [
            ("sharpen(sigma: 0)", "sigma", 16), ("sharpen(sigma: 10.5)", "sigma", 16), ("sharpen(-1)", "sigma", 9),
            ("blur(2)|>sharpen(amount: 11)", "amount", 26), ("sharpen(amount: -0.5)", "amount", 17),
            ("sharpen(threshold: 256)", "threshold", 20), ("sharpen(1, 1, -1)", "threshold", 15),
        ])
    func outOfRange(text: String, argument: String, column: Int) {
        #expect {
            _ = try Self.registry.chain(from: text)
        } throws: { error in
            guard let error = error as? ChainError else { return false }
            return error.processor == "sharpen" && error.argument == argument && error.column == column
                && error.description.hasPrefix("sharpen: \(argument)")
        }
    }

    @Test("A misspelt label or name gets a suggestion")
    func suggestions() {
        for (text, suggestion) in [("sharpen(sigm: 1)", "sigma"), ("sharpn(1)", "sharpen")] {
            #expect {
                _ = try Self.registry.chain(from: text)
            } throws: { error in
                (error as? ChainError)?.suggestion == suggestion
            }
        }
    }
}
