import CDarkroomPlugin
import DarkroomChains
import DarkroomCore
import DarkroomPlugins
import Glibc

/// Measures what crossing the plugin ABI costs per call: the C example plugin's `invert` through
/// Darkroom's plugin path, the same operation written as a built-in Swift processor, and the
/// plugin's callback called directly on a preallocated output (no host around it), on a 400×400
/// and a 4000×3000 bitmap; median nanoseconds per call. Not a test: timings never go into tests.
///
///     scripts/bench-plugins.sh        (builds the C plugin, then runs this in release mode)
@main
struct PluginBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else {
            print("usage: darkroom-plugin-bench PATH/libinvert.so")
            exit(2)
        }
        let path = arguments[1]
        var catalog = PluginCatalog()
        PluginLoader.loadLibrary(path, into: &catalog)
        guard catalog.refusals.isEmpty else {
            print("\(catalog.refusals)")
            exit(1)
        }
        let plugin = try catalog.processors.chain(from: "invert(amount: 1)")
        let builtIn = ProcessorChain([BuiltInInvert(amount: 1)])
        let raw = try RawCallback(path: path)

        print(
            "| bitmap | built-in (Swift) | plugin (C, through Darkroom) | plugin ÷ built-in | callback alone (C, no host) | host's share of the plugin path |")
        print("|---|---|---|---|---|---|")
        for (width, height, calls) in [(400, 400, 3001), (4000, 3000, 41)] {
            let input = try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
                for i in 0..<(rowBytes * height) { bytes[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: i &* 31) }
            }
            // Same output from both paths, or the comparison means nothing.
            let a = try builtIn.process(input)
            let b = try plugin.process(input)
            guard a.withUnsafeBytes({ Array($0) }) == b.withUnsafeBytes({ Array($0) }) else {
                print("the built-in and the plugin disagree")
                exit(1)
            }
            // Interleaved rounds, so drift in the machine's speed falls on all three alike.
            var times: [[Double]] = [[], [], []]
            for _ in 0..<calls {
                times[0].append(try measure { _ = try builtIn.process(input) })
                times[1].append(try measure { _ = try plugin.process(input) })
                times[2].append(try measure { raw.call(input) })
            }
            let medians = times.map(median)
            print(
                "| \(width)×\(height) | \(format(medians[0])) | \(format(medians[1])) | \(String(format: "%.3f", medians[1] / medians[0])) | \(format(medians[2])) | \(format(medians[1] - medians[2])) |"
            )
        }
    }

    static func measure(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func format(_ nanoseconds: Double) -> String {
        nanoseconds >= 1e6 ? String(format: "%.2f ms", nanoseconds / 1e6) : String(format: "%.1f µs", nanoseconds / 1e3)
    }
}

/// `invert(amount)` as a built-in processor would be written: the plugin's arithmetic, in Swift,
/// over raw row pointers into a bitmap the kernel allocates.
struct BuiltInInvert: ImageProcessing, Hashable {
    var amount: Double

    var invocation: ProcessorInvocation {
        ProcessorInvocation(name: "invert", version: 1, arguments: [("amount", .number(amount))], positionalCount: 0)
    }

    func process(_ bitmap: Bitmap) throws -> Bitmap {
        let k = UInt32((amount * 255).rounded())
        var output = try Bitmap(width: bitmap.width, height: bitmap.height, isOpaque: bitmap.isOpaque, limits: bitmap.limits) { out, outRow in
            bitmap.withUnsafeBytes { input in
                guard let source = input.baseAddress, let target = out.baseAddress else { return }
                for y in 0..<bitmap.height {
                    let s = source + y * bitmap.bytesPerRow
                    let d = target + y * outRow
                    var x = 0
                    while x < bitmap.width * 4 {
                        let alpha = UInt32(s[x + 3])
                        for c in 0..<3 {
                            let v = UInt32(s[x + c])
                            d[x + c] = UInt8(truncatingIfNeeded: (v &* (255 &- k) &+ (alpha &- v) &* k &+ 127) / 255)
                        }
                        d[x + 3] = s[x + 3]
                        x += 4
                    }
                }
            }
        }
        output.isOpaque = bitmap.isOpaque
        return output
    }
}

/// The plugin's `process` callback called directly, writing into one preallocated buffer: the
/// floor no host can go under.
final class RawCallback {
    let processor: UnsafePointer<darkroom_processor>
    var output: [UInt8] = []
    var value = darkroom_value()

    init(path: String) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, DARKROOM_PLUGIN_ENTRY_NAME) else {
            throw Failure()
        }
        let entry = unsafeBitCast(symbol, to: darkroom_plugin_entry_function.self)
        guard let plugin = entry(DARKROOM_PLUGIN_ABI_VERSION), let first = plugin.pointee.processors?[0] else { throw Failure() }
        processor = first
        value.kind = DARKROOM_KIND_NUMBER
        value.number = 1
    }

    func call(_ bitmap: Bitmap) {
        if output.count != bitmap.width * bitmap.height * 4 { output = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 4) }
        var error = darkroom_error()
        bitmap.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { out in
                var source = darkroom_bitmap(
                    pixels: UnsafeMutablePointer(mutating: input.baseAddress), width: UInt32(bitmap.width), height: UInt32(bitmap.height),
                    stride: bitmap.bytesPerRow, is_opaque: 1)
                var target = darkroom_bitmap(
                    pixels: out.baseAddress, width: UInt32(bitmap.width), height: UInt32(bitmap.height), stride: bitmap.width * 4, is_opaque: 0)
                _ = processor.pointee.process(&value, 1, &source, &target, nil, &error)
            }
        }
    }

    struct Failure: Error {}
}
