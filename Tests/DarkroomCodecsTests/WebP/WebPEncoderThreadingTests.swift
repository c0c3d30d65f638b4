import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// libwebp's `thread_level` encodes the alpha plane and splits the analysis pass on a second
/// thread. Darkroom turns it on for a lone large image, so it must not change a byte.
@Suite("WebP encoding on a second thread")
struct WebPEncoderThreadingTests {
    /// Texture (so the analysis finds segments) under an alpha ramp with fully transparent and
    /// opaque areas (so the alpha plane is non-trivial), at odd sizes.
    private static func texturedTranslucent(width: Int, height: Int) throws -> Bitmap {
        var state: UInt32 = 0x9E37_79B9
        return try Bitmap(width: width, height: height, isOpaque: false) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Int(state >> 27)
                    let alpha: Int = x < width / 5 ? 0 : (x > width * 4 / 5 ? 255 : (x * 255) / width)
                    let red: Int = min(255, (y * 255) / height + noise)
                    let green: Int = (x / 8 + y / 8) % 2 == 0 ? 40 : 210
                    let blue: Int = min(255, (x * 191) / width + noise * 2)
                    let color = RGBAColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue), alpha: UInt8(alpha))
                    let p = color.premultiplied
                    let i = y * rowBytes + x * 4
                    bytes[i] = p.r
                    bytes[i + 1] = p.g
                    bytes[i + 2] = p.b
                    bytes[i + 3] = p.a
                }
            }
        }
    }

    @Test(
        "A translucent image encodes to the same bytes with and without libwebp's second thread",
        arguments: [EncodeOptions(quality: 80), EncodeOptions(quality: 30), EncodeOptions(lossless: true)])
    func sameBytes(options: EncodeOptions) throws {
        let bitmap = try Self.texturedTranslucent(width: 517, height: 301)
        let rect = PixelRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height)
        let single = try WebPEncoder().encode(bitmap, rect: rect, options: options, threaded: false)
        let threaded = try WebPEncoder().encode(bitmap, rect: rect, options: options, threaded: true)
        #expect(single == threaded)
        #expect(PWGContainers.webpChunks(single).contains(options.lossless ? "VP8L" : "ALPH"))
    }

    @Test("Animation frames never ask for the second thread; a still image does only when a kernel would split")
    func onlyStillsWhenIdle() {
        let rect = PixelRect(x: 0, y: 0, width: 4000, height: 3000)
        #expect(!WebPEncoder.usesIdleCores(rect: rect, frameNumber: 3))
        #expect(WebPEncoder.usesIdleCores(rect: rect, frameNumber: nil) == (RowBands.threadBudget(rows: 3000, width: 4000) > 1))
        #expect(!WebPEncoder.usesIdleCores(rect: PixelRect(x: 0, y: 0, width: 8, height: 8), frameNumber: nil))
    }
}
