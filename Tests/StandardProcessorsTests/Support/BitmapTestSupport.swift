import DarkroomChains
import DarkroomCore
import Foundation

/// Measurements shared by the processor tests.
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
