import DarkroomCodecs
import DarkroomCore
import DarkroomStandardProcessors
import Foundation

/// Temporary directories and real encoded images for the pipeline tests.
enum PipelineTestSupport {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "darkroom-pipeline-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A `width`×`height` gradient encoded as `format`.
    static func image(_ format: ImageFormat, width: Int = 160, height: Int = 90) throws -> [UInt8] {
        let bitmap = try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(x * 255 / (width - 1)); bytes[i + 1] = UInt8(y * 255 / (height - 1))
                    bytes[i + 2] = 120; bytes[i + 3] = 255
                }
            }
        }
        return try CoderRegistry.standard.encoder(for: format).encode(bitmap, options: EncodeOptions(quality: 90))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func chain(_ text: String) throws -> ProcessorChain {
        try StandardProcessors.registry.chain(from: text)
    }
}
