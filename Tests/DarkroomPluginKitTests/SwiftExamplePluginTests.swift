import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import Testing

@Suite("The Swift example plugin (example-swift: sepia), loaded from the build directory")
struct SwiftExamplePluginTests {
    let path: String
    let catalog: PluginCatalog

    init() throws {
        path = try PluginTestSupport.builtSwiftPlugin("DarkroomExampleSwiftPlugin")
        catalog = try PluginTestSupport.catalog(loading: path)
    }

    @Test("Given the built library, when it is loaded, then it is module example-swift 1.0.0 offering sepia(amount: 1)")
    func loadsAsAModule() throws {
        let module = try #require(catalog.modules.first)
        #expect(catalog.modules.count == 1)
        #expect(module.name == "example-swift")
        #expect(module.version == "1.0.0")
        #expect(module.origin == .file(path))
        let sepia = try #require(catalog.processors.descriptor(named: "sepia"))
        #expect(sepia.version == 1)
        #expect(sepia.summary.contains("sepia"))
        #expect(sepia.parameters.map(\.name) == ["amount"])
        #expect(sepia.parameters.first?.defaultValue == .number(1))
    }

    @Test("sepia(0.5) mixes each pixel half-way to the classic sepia matrix, clamped to alpha, alpha kept")
    func sepiaHalfWay() throws {
        let input = try PluginTestSupport.noise(width: 7, height: 5, opaque: false)
        let output = try catalog.processors.chain(from: "sepia(0.5)").process(input)
        #expect(output.size == input.size)
        #expect(PluginTestSupport.bytes(of: output) == Self.sepia(PluginTestSupport.bytes(of: input), amount: 0.5))
        #expect(!output.isOpaque)
    }

    @Test("Given an opaque image, sepia at full strength keeps it opaque; amount 0 changes nothing")
    func opacityAndAmountZero() throws {
        let input = try PluginTestSupport.noise(width: 4, height: 3, opaque: true, seed: 11)
        let full = try catalog.processors.chain(from: "sepia").process(input)
        #expect(full.isOpaque)
        #expect(PluginTestSupport.bytes(of: full) == Self.sepia(PluginTestSupport.bytes(of: input), amount: 1))
        let none = try catalog.processors.chain(from: "sepia(amount: 0)").process(input)
        #expect(PluginTestSupport.bytes(of: none) == PluginTestSupport.bytes(of: input))
    }

    @Test("Called from several tasks at once, as a worker does, sepia gives every caller the same pixels")
    func concurrentCalls() async throws {
        let input = try PluginTestSupport.noise(width: 16, height: 9, opaque: false, seed: 5)
        let chain = try catalog.processors.chain(from: "sepia(0.75)")
        let expected = Self.sepia(PluginTestSupport.bytes(of: input), amount: 0.75)
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { PluginTestSupport.bytes(of: try chain.process(input)) } }
            for try await bytes in group { #expect(bytes == expected) }
        }
    }

    @Test("The identifier carries the module and its version; the canonical text does not")
    func identifiers() throws {
        let half = try catalog.processors.chain(from: "sepia(0.5)")
        #expect(half.identifier == "sepia.v1[example-swift 1.0.0](amount: 0.5)")
        #expect(half.canonicalText == "sepia(amount: 0.5)")
        #expect(try catalog.processors.chain(from: "sepia").identifier == "sepia.v1[example-swift 1.0.0](amount: 1)")
    }

    @Test("An amount outside 0…1 is refused by the host when the chain is bound, from the declared range")
    func rangeIsDeclared() {
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "sepia(1.5)") }
    }

    /// The plugin's arithmetic, written out again: thousandths of the classic matrix rounded to
    /// nearest, clamped to alpha, mixed with the original by k = round(amount·255).
    static func sepia(_ bytes: [UInt8], amount: Double) -> [UInt8] {
        let k = Int((amount * 255).rounded())
        var out = bytes
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let (r, g, b, a) = (Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]), Int(bytes[i + 3]))
            let matrix = [(393, 769, 189), (349, 686, 168), (272, 534, 131)]
            for (channel, m) in matrix.enumerated() {
                let toned = min((m.0 * r + m.1 * g + m.2 * b + 500) / 1000, a)
                out[i + channel] = UInt8((Int(bytes[i + channel]) * (255 - k) + toned * k + 127) / 255)
            }
        }
        return out
    }
}
