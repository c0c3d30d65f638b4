import DarkroomPluginKit

/// A Swift plugin the kit's tests load to reach what the example does not: every argument kind,
/// a changed output size and each way a processor can fail. Not shipped.
enum KitFixtureModule {
    static let definition = PluginModuleDefinition(name: "kit-fixture", version: "0.1.0", processors: [Echo.self, Fail.self])
}

@_cdecl("darkroom_plugin_entry")
public func entry(_ abi: UInt32) -> UnsafePointer<darkroom_plugin>? { KitFixtureModule.definition.descriptor }

/// `echo(size, fill, mode, steps, level, tiny)`: an output of `size` whose first two pixels spell the
/// arguments back — (0, 0) is `fill` as given, (1, 0) is (steps, mode's index, level·100, 255) —
/// and the rest opaque black.
enum Echo: PluginProcessor {
    static let name = "echo"
    static let version = 2
    static let parameters: [PluginParameter] = [
        .size("size", summary: "the output's size"),
        .color("fill", default: PluginColor(red: 0x10, green: 0x20, blue: 0x30)),
        .choice("mode", ["first", "second"], default: "first"),
        .integer("steps", in: 1...9, default: 3),
        .number("level", in: 0...1, default: 0.25),
        // Swift spells this 1e-05; the chain syntax has no exponents.
        .number("tiny", in: 0...1, default: 0.00001),
    ]

    static func outputSize(for input: PluginSize, arguments: PluginArguments) throws -> PluginSize {
        try arguments[0].size
    }

    static func process(input: PluginBitmap, output: inout PluginBitmap, arguments: PluginArguments) throws {
        let fill = try arguments["fill"].color
        for y in 0..<output.height {
            let row = output.mutableRow(y)
            for i in row.indices { row[i] = i % 4 == 3 ? 255 : 0 }
        }
        output[x: 0, y: 0] = PluginPixel(red: fill.red, green: fill.green, blue: fill.blue, alpha: fill.alpha)
        let mode = try arguments["mode"].choice == "second" ? 1 : 0
        let level = UInt8((try arguments["level"].number * 100).rounded())
        output[x: 1, y: 0] = PluginPixel(red: UInt8(try arguments["steps"].integer), green: UInt8(mode), blue: level, alpha: 255)
        output.isOpaque = fill.alpha == 255
    }
}

/// `fail(kind)`: throws a permanent error with a message longer than the host's buffer, a
/// `PluginTransientError`, asks for an argument that does not exist, or reads one as the wrong kind.
enum Fail: PluginProcessor {
    static let name = "fail"
    static let version = 1
    static let parameters: [PluginParameter] = [.choice("kind", ["permanent", "transient", "argument", "mismatch"])]

    struct Long: Error, CustomStringConvertible {
        var description: String { "x" + String(repeating: "é", count: 600) }
    }

    static func process(input: PluginBitmap, output: inout PluginBitmap, arguments: PluginArguments) throws {
        switch try arguments["kind"].choice {
        case "transient": throw PluginTransientError("the upstream is busy")
        case "argument": _ = try arguments["nope"].number
        case "mismatch": _ = try arguments["kind"].size
        default: throw Long()
        }
    }
}
