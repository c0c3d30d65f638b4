import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import Foundation

/// Helpers for the geometry processor tests: the registry of the six geometry descriptors,
/// pixel checks, and a bridge to the `vips` command line through binary PPM files (so the
/// comparisons need no image codecs).
enum GeometryTestSupport {
    /// The six geometry descriptors, registered the way the plugin registers them.
    static var registry: ProcessorRegistry {
        var registry = ProcessorRegistry()
        for descriptor in [
            ImageProcessors.Downsample.descriptor, ImageProcessors.Resize.descriptor,
            ImageProcessors.Crop.descriptor, ImageProcessors.Blur.descriptor,
            ImageProcessors.Rotate.descriptor, ImageProcessors.Flip.descriptor,
        ] {
            try! registry.register(descriptor)
        }
        return registry
    }

    /// The single processor of a one-call chain, built from text through the registry.
    static func processor(_ text: String) throws -> any ImageProcessing {
        try registry.chain(from: text).processors[0]
    }

    /// `downsample(WxH)` from the Swift DSL.
    static func downsample(_ width: Int, _ height: Int) -> ImageProcessors.Downsample {
        .downsample(to: PixelSize(width: width, height: height))
    }

    /// The error `text` fails with, or nil when it parses.
    static func chainError(_ text: String) -> ChainError? {
        do {
            _ = try registry.chain(from: text)
            return nil
        } catch {
            return error
        }
    }

    /// A premultiplied image with `inner` (straight colour) in the rectangle and `outer` elsewhere.
    static func square(width: Int, height: Int, rect: PixelRect, inner: RGBAColor, outer: RGBAColor) -> Bitmap {
        let i = inner.premultiplied
        let o = outer.premultiplied
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
                let p = inside ? i : o
                bytes += [p.r, p.g, p.b, p.a]
            }
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes, isOpaque: inner.isOpaque && outer.isOpaque)
    }

    /// A detailed but natural-looking opaque test picture: gradients, soft waves and a few hard
    /// edged discs, the kind of content resamplers are compared on (noise exaggerates tiny phase
    /// differences; photos are too large for a fixture).
    static func scene(width: Int, height: Int) -> Bitmap {
        try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let fx = Double(x) / Double(width)
                    let fy = Double(y) / Double(height)
                    var r = 40 + 160 * fx + 30 * sin(Double(x) / 7)
                    var g = 60 + 120 * fy + 25 * cos(Double(y) / 5 + Double(x) / 11)
                    var b = 90 + 60 * sin(Double(x + y) / 13)
                    for (cx, cy, rad) in [(0.3, 0.4, 0.12), (0.7, 0.6, 0.18), (0.55, 0.2, 0.07)] {
                        let dx = fx - cx
                        let dy = (fy - cy) * Double(height) / Double(width)
                        if dx * dx + dy * dy < rad * rad {
                            r = 230 - r / 3
                            g = 200 - g / 4
                            b = 30 + b / 2
                        }
                    }
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(max(0, min(255, r)))
                    bytes[i + 1] = UInt8(max(0, min(255, g)))
                    bytes[i + 2] = UInt8(max(0, min(255, b)))
                    bytes[i + 3] = 255
                }
            }
        }
    }

    // MARK: - vips through PPM files

    /// True when a `vips` executable is on PATH (tests comparing with libvips are skipped otherwise).
    static let vipsAvailable: Bool = executable(named: "vips") != nil

    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `vips` (or another tool on PATH) with `arguments`; throws with its stderr on failure.
    static func run(_ tool: String, _ arguments: [String]) throws {
        guard let path = executable(named: tool) else { throw ToolFailure(message: "\(tool) is not on PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(message: "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// A fresh temporary directory, removed by the caller with `FileManager.removeItem`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("darkroom-geometry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes an opaque bitmap as binary PPM (P6).
    static func writePPM(_ b: Bitmap, to url: URL) throws {
        var out = Array("P6\n\(b.width) \(b.height)\n255\n".utf8)
        out.reserveCapacity(out.count + b.width * b.height * 3)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b.premultipliedPixel(x: x, y: y)
                out += [p.r, p.g, p.b]
            }
        }
        try Data(out).write(to: url)
    }

    /// Reads a binary PPM (P6, maxval 255) as an opaque bitmap.
    static func readPPM(_ url: URL) throws -> Bitmap {
        let data = [UInt8](try Data(contentsOf: url))
        var index = 2
        var fields: [Int] = []
        guard data.count > 2, data[0] == UInt8(ascii: "P"), data[1] == UInt8(ascii: "6") else {
            throw ToolFailure(message: "\(url.path) is not a binary PPM")
        }
        while fields.count < 3 && index < data.count {
            if data[index] == UInt8(ascii: "#") {
                while index < data.count && data[index] != 10 { index += 1 }
            } else if data[index] <= 32 {
                index += 1
            } else {
                var value = 0
                while index < data.count, (48...57).contains(data[index]) {
                    value = value * 10 + Int(data[index] - 48)
                    index += 1
                }
                fields.append(value)
            }
        }
        index += 1  // the single whitespace byte after maxval
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255, data.count >= index + width * height * 3 else {
            throw ToolFailure(message: "\(url.path): unsupported PPM (maxval \(fields[2]))")
        }
        return try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let s = index + (y * width + x) * 3
                    let d = y * rowBytes + x * 4
                    bytes[d] = data[s]
                    bytes[d + 1] = data[s + 1]
                    bytes[d + 2] = data[s + 2]
                    bytes[d + 3] = 255
                }
            }
        }
    }

    /// Writes `input` as PPM, runs `vips` with the input and output paths substituted for `{in}`
    /// and `{out}`, and reads the result back.
    static func vips(_ input: Bitmap, _ arguments: [String]) throws -> Bitmap {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("in.ppm")
        let outURL = directory.appendingPathComponent("out.ppm")
        try writePPM(input, to: inURL)
        try run("vips", arguments.map { $0 == "{in}" ? inURL.path : $0 == "{out}" ? outURL.path : $0 })
        return try readPPM(outURL)
    }
}
