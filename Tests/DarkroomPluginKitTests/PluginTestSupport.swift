import DarkroomCore
import DarkroomPlugins
import DarkroomTestSupport

/// Loading plugin libraries as the host does, and small bitmaps to run them on.
enum PluginTestSupport {
    /// A catalog holding only the plugin at `path`, loaded by `PluginLoader.loadLibrary`; throws
    /// the loader's reason when it refused it.
    static func catalog(loading path: String) throws -> PluginCatalog {
        var catalog = PluginCatalog()
        PluginLoader.loadLibrary(path, into: &catalog)
        if let refusal = catalog.refusals.first { throw Refused(description: refusal.description) }
        return catalog
    }

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// A Swift plugin SwiftPM built beside the test bundle (`swift build --build-tests` builds
    /// every product, the dynamic libraries included).
    static func builtSwiftPlugin(_ product: String) throws -> String {
        try DarkroomBinary.path(named: "lib\(product).so")
    }

    /// A `width`×`height` bitmap of valid premultiplied pseudo-random pixels (each colour channel
    /// at most its alpha), from a fixed seed; every alpha is 255 when `opaque`.
    static func noise(width: Int, height: Int, opaque: Bool, seed: UInt64 = 7) throws -> Bitmap {
        var state = seed
        func next(_ bound: Int) -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: Int(state >> 33) % (bound + 1))
        }
        var bytes: [UInt8] = []
        for _ in 0..<width * height {
            let alpha = opaque ? 255 : next(255)
            bytes += [next(Int(alpha)), next(Int(alpha)), next(Int(alpha)), alpha]
        }
        return try Bitmap(width: width, height: height, premultipliedRGBA: bytes, isOpaque: opaque)
    }

    /// Every byte, tightly packed.
    static func bytes(of bitmap: Bitmap) -> [UInt8] {
        (0..<bitmap.height).flatMap { y in
            (0..<bitmap.width).flatMap { x in
                let p = bitmap.premultipliedPixel(x: x, y: y)
                return [p.r, p.g, p.b, p.a]
            }
        }
    }
}
