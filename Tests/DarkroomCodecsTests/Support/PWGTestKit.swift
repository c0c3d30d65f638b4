import DarkroomChains
import DarkroomCore
import Foundation
import Testing

@testable import DarkroomCodecs

/// Helpers for the PNG, WebP, GIF and hostile-input tests (a name of their own, so they cannot
/// clash with the JPEG tests' helpers in the same target).
enum PWGTestKit {
    struct MissingFixture: Error, CustomStringConvertible {
        var path: String
        var description: String { "fixture \(path) is missing from the test bundle" }
    }

    /// The bytes of `Fixtures/<path>`.
    static func fixture(_ path: String) throws -> [UInt8] {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw MissingFixture(path: "Fixtures")
        }
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MissingFixture(path: path) }
        return [UInt8](data)
    }

    static func encoded(_ path: String) throws -> EncodedImage {
        EncodedImage(bytes: try fixture(path), sourceName: path)
    }

    /// Every pixel of `bitmap` as straight-alpha RGBA, premultiplied the way `Bitmap` stores it,
    /// compared with `straight` (a reference decode in straight RGBA8). Returns a description of
    /// the first pixel that differs by more than `tolerance` in any channel, or nil.
    static func firstMismatch(_ bitmap: Bitmap, straight: [UInt8], tolerance: Int = 0) -> String? {
        guard straight.count == bitmap.width * bitmap.height * 4 else {
            return "reference has \(straight.count / 4) pixels, bitmap \(bitmap.width)x\(bitmap.height)"
        }
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let i = (y * bitmap.width + x) * 4
                let want = RGBAColor(red: straight[i], green: straight[i + 1], blue: straight[i + 2], alpha: straight[i + 3]).premultiplied
                let got = bitmap.premultipliedPixel(x: x, y: y)
                let diff = max(
                    abs(Int(want.r) - Int(got.r)), abs(Int(want.g) - Int(got.g)),
                    abs(Int(want.b) - Int(got.b)), abs(Int(want.a) - Int(got.a)))
                if diff > tolerance {
                    return "pixel (\(x), \(y)): got \(got), want \(want)"
                }
            }
        }
        return nil
    }

    /// PSNR in dB over the colour channels after compositing both images on white; 99 when equal.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size, "PSNR needs equal sizes")
        var sum = 0.0
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        let i = y * a.bytesPerRow + x * 4
                        let j = y * b.bytesPerRow + x * 4
                        for c in 0..<3 {
                            let va = Int(pa[i + c]) + 255 - Int(pa[i + 3])
                            let vb = Int(pb[j + c]) + 255 - Int(pb[j + 3])
                            sum += Double((va - vb) * (va - vb))
                        }
                    }
                }
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// True when the two bitmaps hold the same premultiplied pixels.
    static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.size == b.size else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) {
                return false
            }
        }
        return true
    }

    /// A smooth opaque image (soft gradients, no edges), the kind lossy codecs handle best.
    static func smoothImage(width: Int, height: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    let fx = Double(x) / Double(width)
                    let fy = Double(y) / Double(height)
                    bytes[i] = UInt8(40 + 180 * fx)
                    bytes[i + 1] = UInt8(60 + 150 * fy)
                    bytes[i + 2] = UInt8(128 + 90 * sin(fx * 3 + fy * 2))
                    bytes[i + 3] = 255
                }
            }
        }
    }

    /// An image with every kind of alpha: opaque, transparent and semi-transparent areas with
    /// colour under them, stored premultiplied.
    static func translucentImage(width: Int, height: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, isOpaque: false) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    let alpha = UInt8((x * 255) / max(1, width - 1))
                    let color = RGBAColor(red: UInt8((y * 255) / max(1, height - 1)), green: 200, blue: UInt8((x * 191) / max(1, width - 1)), alpha: alpha)
                    let p = color.premultiplied
                    bytes[i] = p.r
                    bytes[i + 1] = p.g
                    bytes[i + 2] = p.b
                    bytes[i + 3] = p.a
                }
            }
        }
    }

    /// Runs `body` with a pixel-memory observer and returns how many pixel buffers it allocated
    /// along with the error it threw (nil if it did not throw).
    static func allocations(during body: () throws(CodecError) -> Void) -> (count: Int, error: CodecError?) {
        let observer = PixelMemory.Observer()
        var caught: CodecError?
        PixelMemory.$observer.withValue(observer) {
            do throws(CodecError) { try body() } catch { caught = error }
        }
        return (observer.allocationCount, caught)
    }
}
