import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import Testing

/// The kit's ABI translation, through a fixture plugin written with it (Tests/DarkroomPluginKitFixture)
/// and loaded from the build directory like the example.
@Suite("DarkroomPluginKit: argument kinds, output size and errors across the C ABI")
struct SwiftPluginKitTests {
    let catalog: PluginCatalog

    init() throws {
        catalog = try PluginTestSupport.catalog(loading: try PluginTestSupport.builtSwiftPlugin("DarkroomPluginKitFixture"))
    }

    @Test("Declared kinds, ranges, choices and defaults reach the host's schema; Swift's 1e-05 arrives as 0.00001")
    func schema() throws {
        let echo = try #require(catalog.processors.descriptor(named: "echo"))
        #expect(echo.version == 2)
        #expect(echo.parameters.map(\.name) == ["size", "fill", "mode", "steps", "level", "tiny"])
        #expect(
            echo.parameters.map(\.defaultValue) == [
                nil, .color(RGBAColor(red: 0x10, green: 0x20, blue: 0x30)), .word("first"), .number(3), .number(0.25), .number(0.00001),
            ])
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "echo(2x2, steps: 10)") }
        #expect(throws: ChainError.self) { try catalog.processors.chain(from: "echo(2x2, mode: third)") }
    }

    @Test("Given every kind of argument, the processor reads each by name and index, sizes the output and sets isOpaque")
    func argumentsAndOutputSize() throws {
        let input = try PluginTestSupport.noise(width: 2, height: 2, opaque: true)
        let chain = try catalog.processors.chain(from: "echo(4x3, fill: #C0806040, mode: second, steps: 7, level: 0.5)")
        // How the host prints `tiny` (0.00001) is the host's business; the rest is the kit's.
        #expect(chain.identifier.hasPrefix("echo.v2[kit-fixture 0.1.0](4x3, fill: #C0806040, mode: second, steps: 7, level: 0.5, tiny: "))
        let output = try chain.process(input)
        #expect(output.size == PixelSize(width: 4, height: 3))
        #expect(!output.isOpaque)
        #expect(output.premultipliedPixel(x: 0, y: 0) == (0xC0, 0x80, 0x60, 0x40))
        #expect(output.premultipliedPixel(x: 1, y: 0) == (7, 1, 50, 255))
        #expect(output.premultipliedPixel(x: 3, y: 2) == (0, 0, 0, 255))
        let defaults = try catalog.processors.chain(from: "echo(2x1)").process(input)
        #expect(defaults.isOpaque)
        #expect(defaults.premultipliedPixel(x: 0, y: 0) == (0x10, 0x20, 0x30, 255))
        #expect(defaults.premultipliedPixel(x: 1, y: 0) == (3, 0, 25, 255))
    }

    @Test("A thrown error fails permanently with its description, cut at a character boundary to fit the buffer")
    func permanentError() throws {
        let failure = try #require(throws: PluginFailure.self) { try run("fail(permanent)") }
        #expect(!failure.isTransient)
        #expect(failure.errorCode == "plugin.failed")
        // 511 bytes and the NUL: "x" and 255 two-byte "é", not half of the 256th.
        #expect(failure.message == "x" + String(repeating: "é", count: 255))
    }

    @Test("PluginTransientError fails transiently (the job is retried)")
    func transientError() throws {
        let failure = try #require(throws: PluginFailure.self) { try run("fail(transient)") }
        #expect(failure.isTransient)
        #expect(failure.message == "the upstream is busy")
    }

    @Test("Asking for an argument that is not declared fails the job with the declared names, not the host")
    func unknownArgument() throws {
        let failure = try #require(throws: PluginFailure.self) { try run("fail(argument)") }
        #expect(!failure.isTransient)
        #expect(failure.message == "no parameter named 'nope' (declared: kind)")
    }

    @Test("Reading an argument as another kind fails the job with what it is")
    func wrongKind() throws {
        let failure = try #require(throws: PluginFailure.self) { try run("fail(mismatch)") }
        #expect(failure.message == "argument 'kind' is mismatch, not a size")
    }

    private func run(_ chain: String) throws {
        _ = try catalog.processors.chain(from: chain).process(PluginTestSupport.noise(width: 2, height: 2, opaque: true))
    }
}
