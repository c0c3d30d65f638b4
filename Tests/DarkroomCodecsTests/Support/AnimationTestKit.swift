import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// Animations built inside the tests, and helpers to read them.
enum AnimationTestKit {
    typealias Pixel = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
    static let red: Pixel = (255, 0, 0, 255)
    static let green: Pixel = (0, 255, 0, 255)
    static let blue: Pixel = (0, 0, 255, 255)
    static let white: Pixel = (255, 255, 255, 255)
    static let black: Pixel = (0, 0, 0, 255)
    static let clear: Pixel = (0, 0, 0, 0)

    /// A 6×4 GIF of five frames that uses every disposal method, a transparent index, frames of
    /// different sizes and offsets, one reaching past the screen, a local colour table, a frame
    /// without a Graphics Control Extension, and the NETSCAPE2.0 extension asking for 2 repeats.
    ///
    /// | frame | GCE (disposal, delay) | rectangle | pixels |
    /// |---|---|---|---|
    /// | 0 | 1 keep, 20 cs | 6×4 at (0, 0) | red |
    /// | 1 | 2 background, 0 cs | 2×2 at (1, 1) | green |
    /// | 2 | 3 previous, 1 cs, transparent 5 | 2×2 at (4, 2) | blue, top-left transparent |
    /// | 3 | 0 none, 5 cs | 4×2 at (4, 3), clipped to 2×1 | white |
    /// | 4 | (no GCE) | 1×1 at (0, 0) | black, from a local table |
    static func disposalGIF() -> [UInt8] {
        let palette: [PWGGIFBuilder.Color] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (255, 0, 255)]
        var gif = PWGGIFBuilder(width: 6, height: 4, globalColors: palette)
        gif.netscapeLoop(2)
        gif.graphicsControl(transparentIndex: nil, disposal: 1, delay: 20)
        gif.frame(x: 0, y: 0, width: 6, height: 4, indices: [UInt8](repeating: 0, count: 24))
        gif.graphicsControl(transparentIndex: nil, disposal: 2, delay: 0)
        gif.frame(x: 1, y: 1, width: 2, height: 2, indices: [1, 1, 1, 1])
        gif.graphicsControl(transparentIndex: 5, disposal: 3, delay: 1)
        gif.frame(x: 4, y: 2, width: 2, height: 2, indices: [5, 2, 2, 2])
        gif.graphicsControl(transparentIndex: nil, disposal: 0, delay: 5)
        gif.frame(x: 4, y: 3, width: 4, height: 2, indices: [UInt8](repeating: 3, count: 8))
        gif.frame(x: 0, y: 0, width: 1, height: 1, indices: [0], localColors: [(0, 0, 0), (9, 9, 9)])
        gif.trailer()
        return gif.bytes
    }

    /// `count` frames of 1×1 whose LZW data is not valid: any attempt to decode one fails, so a
    /// refusal that comes back as a limit proves no frame was decoded.
    static func undecodableFrames(width: Int, height: Int, count: Int) -> [UInt8] {
        var gif = PWGGIFBuilder(width: width, height: height, globalColors: [(255, 0, 0), (0, 0, 255)])
        for _ in 0..<count {
            // Descriptor, minimum code size 8, one sub-block of two 0xFF bytes (code 511 first:
            // no such code exists yet), block terminator.
            gif.append([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 8, 2, 0xFF, 0xFF, 0])
        }
        gif.trailer()
        return gif.bytes
    }

    static func encoded(_ bytes: [UInt8], _ name: String) -> EncodedImage {
        EncodedImage(bytes: bytes, sourceName: name)
    }

    /// Every frame of `bytes`, read through the format-sniffing entry point.
    static func readAll(_ bytes: [UInt8], name: String = "anim", limits: DecodeLimits = DecodeLimits()) throws(CodecError) -> (
        info: AnimationInfo, animation: AnimatedImage
    ) {
        let reader = try AnimationDecoders.frames(of: encoded(bytes, name), options: DecodeOptions(limits: limits))
        let info = reader.info
        return (info, try reader.readAll())
    }

    /// A `width × height` frame: a translucent background whose alpha and colour depend on
    /// `seed`, an opaque square at a place that moves with `seed`, and a fully transparent
    /// column. Premultiplied, as decoders produce.
    static func movingSquare(width: Int, height: Int, seed: Int) throws -> Bitmap {
        try Bitmap(width: width, height: height, isOpaque: false) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * rowBytes + x * 4
                    var color = RGBAColor(
                        red: UInt8((x * 40 + seed * 30) % 256), green: UInt8((y * 50 + seed * 70) % 256), blue: 90,
                        alpha: UInt8(60 + (x * 13 + y * 7 + seed * 11) % 150))
                    let square = x >= seed % (width - 2) && x < seed % (width - 2) + 3 && y >= 1 && y < 4
                    if square { color = RGBAColor(red: 250, green: UInt8(20 * seed % 256), blue: 10) }
                    if x == width - 1 { color = .clear }
                    let p = color.premultiplied
                    bytes[i] = p.r
                    bytes[i + 1] = p.g
                    bytes[i + 2] = p.b
                    bytes[i + 3] = p.a
                }
            }
        }
    }

    /// A smooth translucent gradient (what lossy coding handles well) with an opaque 4×4
    /// square whose place moves with `seed`.
    static func smoothTranslucent(width: Int, height: Int, seed: Int) throws -> Bitmap {
        var bitmap = try PWGTestKit.translucentImage(width: width, height: height)
        let x0 = (seed * 6) % (width - 4)
        let stride = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { bytes in
            for y in 2..<6 {
                for x in x0..<(x0 + 4) {
                    let i = y * stride + x * 4
                    bytes[i] = 30
                    bytes[i + 1] = 60
                    bytes[i + 2] = 200
                    bytes[i + 3] = 255
                }
            }
        }
        return bitmap
    }

    /// The largest difference in any channel between two premultiplied bitmaps of one size,
    /// and whether every alpha is equal.
    static func difference(_ a: Bitmap, _ b: Bitmap) -> (worstColor: Int, alphaEqual: Bool) {
        precondition(a.size == b.size)
        var worst = 0
        var alphaEqual = true
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.premultipliedPixel(x: x, y: y)
                let q = b.premultipliedPixel(x: x, y: y)
                if p.a != q.a { alphaEqual = false }
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        return (worst, alphaEqual)
    }

    /// A deterministic generator for the byte-flipping tests (the same damage on every run).
    struct SeededBytes {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }
}
