import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport
import Testing

/// Skipped, with the reason in the test report, when cargo is neither on PATH nor in ~/.cargo/bin.
@Suite(
    "The Rust example plugin (example-rust: mosaic), built with cargo",
    .enabled(if: PluginBuilds.cargo != nil, "cargo is neither on PATH nor in ~/.cargo/bin: the Rust example is not built or tested")
)
struct RustExamplePluginTests {
    /// Built once for the whole suite (cargo takes seconds), into a fresh temporary target directory.
    static let library: Result<String, any Error> = Result {
        try PluginBuilds.buildRust(
            manifest: "Plugins/Examples/Rust/Cargo.toml", library: "darkroom_example_rust",
            targetDirectory: try TestImages.makeDirectory("rust-plugin"))
    }

    let path: String
    let catalog: PluginCatalog

    init() throws {
        path = try Self.library.get()
        catalog = try PluginTestSupport.catalog(loading: path)
    }

    @Test("Given the cargo-built library, when it is loaded, then it is module example-rust 1.0.0 offering mosaic(size: 8)")
    func loadsAsAModule() throws {
        let module = try #require(catalog.modules.first)
        #expect(module.name == "example-rust")
        #expect(module.version == "1.0.0")
        let mosaic = try #require(catalog.processors.descriptor(named: "mosaic"))
        #expect(mosaic.parameters.map(\.name) == ["size"])
        #expect(mosaic.parameters.first?.defaultValue == .number(8))
        #expect(try catalog.processors.chain(from: "mosaic").identifier == "mosaic.v1[example-rust 1.0.0](size: 8)")
        #expect(try catalog.processors.chain(from: "mosaic(3)").identifier == "mosaic.v1[example-rust 1.0.0](size: 3)")
    }

    @Test("mosaic(3) fills each 3×3 block with its rounded average premultiplied colour; edge blocks cover what is left", arguments: [false, true])
    func blocksAverage(opaque: Bool) throws {
        let input = try PluginTestSupport.noise(width: 8, height: 7, opaque: opaque, seed: 3)
        let output = try catalog.processors.chain(from: "mosaic(3)").process(input)
        #expect(output.size == input.size)
        #expect(output.isOpaque == opaque)
        #expect(PluginTestSupport.bytes(of: output) == Self.mosaic(input, size: 3))
    }

    @Test("A size outside 1…256 or not whole is refused by the host from the declared INTEGER range")
    func rangeIsDeclared() {
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "mosaic(0)") }
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "mosaic(257)") }
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "mosaic(2.5)") }
    }

    /// Each pixel's block, averaged again for every pixel: the same result by another route.
    static func mosaic(_ bitmap: Bitmap, size: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let (left, top) = (x / size * size, y / size * size)
                var sums = [0, 0, 0, 0]
                var count = 0
                for by in top..<min(top + size, bitmap.height) {
                    for bx in left..<min(left + size, bitmap.width) {
                        let p = bitmap.premultipliedPixel(x: bx, y: by)
                        for (channel, value) in [p.r, p.g, p.b, p.a].enumerated() { sums[channel] += Int(value) }
                        count += 1
                    }
                }
                out += sums.map { UInt8(($0 + count / 2) / count) }
            }
        }
        return out
    }
}
