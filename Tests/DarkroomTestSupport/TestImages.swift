import DarkroomCodecs
import DarkroomCore
import Foundation

/// Small real images encoded by Darkroom's own encoders, for tests that need a source file.
public enum TestImages {
    /// A `width`×`height` opaque gradient encoded as `format` (quality 90); `tint` (the blue
    /// channel) makes different images of one size.
    public static func gradient(
        _ format: ImageFormat = .jpeg, width: Int = 120, height: Int = 80,
        tint: UInt8 = 90
    ) throws -> [UInt8] {
        let bitmap = try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(x * 255 / max(width - 1, 1))
                    bytes[i + 1] = UInt8(y * 255 / max(height - 1, 1))
                    bytes[i + 2] = tint
                    bytes[i + 3] = 255
                }
            }
        }
        return try CoderRegistry.standard.encoder(for: format).encode(bitmap, options: EncodeOptions(quality: 90))
    }

    /// A fresh directory under the temporary directory, by its real path (`/tmp` may be a symlink,
    /// and outputs are compared by path).
    public static func makeDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "darkroom-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Writes `bytes` to `path`, replacing any file there.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
