import DarkroomCore
import DarkroomPlugins
import DarkroomStandardProcessors
import DarkroomTestSupport
import Foundation

/// Catalogs of the built-in processors plus test plugins compiled for the test.
enum PluginTestKit {
    /// A catalog holding the standard processors, like the `darkroom` binary's.
    static var builtIn: PluginCatalog { PluginCatalog(builtIn: [StandardProcessors.module]) }

    /// A plugins directory holding the test plugin compiled with `defines`.
    static func directory(_ label: String, defines: [String: String] = [:], name: String = "libtestkit.so") throws -> String {
        let directory = try CPluginCompiler.makeDirectory(label)
        try CPluginCompiler.compile(CPluginCompiler.testPlugin, defines: defines, into: directory, name: name)
        return directory
    }

    /// The built-in catalog with the plugins of `directories` loaded.
    static func catalog(_ directories: String...) -> PluginCatalog {
        var catalog = builtIn
        PluginLoader.load(PluginSearchPath(directories: directories), into: &catalog)
        return catalog
    }

    /// A C string literal for `-D`.
    static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// An opaque `width`×`height` bitmap whose pixel (x, y) is (x·7+seed, y·5, seed, 255).
    static func bitmap(width: Int = 9, height: Int = 6, seed: UInt8 = 10, alpha: UInt8 = 255) throws -> Bitmap {
        try Bitmap(width: width, height: height, isOpaque: alpha == 255) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    // Premultiplied: no channel above alpha.
                    bytes[i] = min(alpha, UInt8(truncatingIfNeeded: x * 7 &+ Int(seed)))
                    bytes[i + 1] = min(alpha, UInt8(truncatingIfNeeded: y * 5))
                    bytes[i + 2] = min(alpha, seed)
                    bytes[i + 3] = alpha
                }
            }
        }
    }

    /// The bytes of `bitmap`, row by row without padding.
    static func pixels(_ bitmap: Bitmap) -> [UInt8] {
        bitmap.withUnsafeBytes { bytes in
            (0..<bitmap.height).flatMap { y in Array(bytes[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + bitmap.width * 4)]) }
        }
    }

    /// What the test plugin's `negate` makes of `bitmap`'s bytes.
    static func negated(_ bitmap: Bitmap) -> [UInt8] {
        var bytes = pixels(bitmap)
        for i in stride(from: 0, to: bytes.count, by: 4) {
            for c in 0..<3 { bytes[i + c] = bytes[i + 3] - bytes[i + c] }
        }
        return bytes
    }
}
