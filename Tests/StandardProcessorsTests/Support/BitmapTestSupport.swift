import DarkroomChains
import DarkroomCore
import Foundation

/// Small images and measurements shared by the processor tests.
enum TestBitmaps {
    /// An opaque image whose red grows left to right and green top to bottom; blue is constant.
    static func gradient(width: Int, height: Int, blue: UInt8 = 64) -> Bitmap {
        try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(x * 255 / max(1, width - 1))
                    bytes[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    bytes[i + 2] = blue
                    bytes[i + 3] = 255
                }
            }
        }
    }

    /// A solid image of one straight-alpha colour.
    static func solid(_ color: RGBAColor, width: Int, height: Int) -> Bitmap {
        try! Bitmap(width: width, height: height, fill: color)
    }

    /// Deterministic pseudo-random opaque noise (a fixed seed), for kernels that must be checked on
    /// detail rather than flat colour.
    static func noise(width: Int, height: Int, seed: UInt64 = 42) -> Bitmap {
        var state = seed
        return try! Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    for c in 0..<3 {
                        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        bytes[i + c] = UInt8(truncatingIfNeeded: state >> 56)
                    }
                    bytes[i + 3] = 255
                }
            }
        }
    }
}

enum PixelMetrics {
    /// Peak signal-to-noise ratio in dB over the colour channels of two same-sized bitmaps, after
    /// compositing each on white (how a viewer sees it); 99 for identical images.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.size == b.size, "PSNR needs equal sizes, got \(a.size) and \(b.size)")
        var sum = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.premultipliedPixel(x: x, y: y)
                let q = b.premultipliedPixel(x: x, y: y)
                // Premultiplied over white: c + (255 - alpha).
                let pa = [Int(p.r), Int(p.g), Int(p.b)].map { $0 + 255 - Int(p.a) }
                let qa = [Int(q.r), Int(q.g), Int(q.b)].map { $0 + 255 - Int(q.a) }
                for c in 0..<3 {
                    let d = Double(pa[c] - qa[c])
                    sum += d * d
                }
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// Largest absolute difference of any channel between two premultiplied pixels.
    static func maxChannelDifference(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ q: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Int {
        max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
    }
}
